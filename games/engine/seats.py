"""The table's four seats: teams, partners and play order (RULES §1.1), named once."""

SEATS = 4


def team_of(seat: int) -> int:
    """0 for North–South (seats 0 and 2), 1 for East–West (seats 1 and 3)."""
    return seat % 2


def same_team(a: int, b: int) -> bool:
    return team_of(a) == team_of(b)


def next_seat(seat: int, steps: int = 1) -> int:
    """The seat `steps` places on in play order (下家 is one step)."""
    return (seat + steps) % SEATS


def partner_of(seat: int) -> int:
    """对家: the seat across the table."""
    return next_seat(seat, 2)
