"""Exact search of the last tricks of one world (every hand known): alpha-beta over the
legal plays, the defenders maximising their score and the dealer's team minimising it.

The transitions are the engine's own (`engine.Playout`: throw check, trick winner,
points, the kitty bonus of the last trick and the end-of-hand score, RULES §5.3-§7);
the moves are the engine's lists of legal leads (singles, pairs and tractors: throws
are left out, the one simplification) and legal follows (§5.4). A search that would
grow past `NODE_CAP` nodes gives up (`TooBig`), and the caller plays a rollout instead.
"""

from games import engine

NODE_CAP = 3000
FOLLOW_CAP = 40  # more legal follows than this: too many to search here

Leaf = tuple[int, int, int]  # (defenders' score, defenders' trick points, penalties)


class TooBig(Exception):
    pass


def copy(p: engine.Playout) -> engine.Playout:
    return engine.Playout(
        ctx=p.ctx,
        dealer=p.dealer,
        hands=[list(h) for h in p.hands],
        buried=p.buried,
        trick=list(p.trick),
        turn=p.turn,
        defender_points=p.defender_points,
        penalties=p.penalties,
        rules=p.rules,
    )


def moves(p: engine.Playout) -> list[list[str]]:
    """The distinct legal plays of the seat to move (leads without throws)."""
    hand = p.hands[p.turn]
    if not p.trick:
        return engine.lead_components(hand, p.ctx)
    found = engine.legal_follows(p.trick[0][1], hand, p.ctx, cap=FOLLOW_CAP)
    if found is None:
        raise TooBig
    return found


def solve(p: engine.Playout, budget: list[int], alpha: float = -1e9, beta: float = 1e9) -> Leaf:
    """The exact result of `p` (left unchanged) under best play by both teams. `budget`
    holds the nodes still allowed (one element, counted down)."""
    if p.score is not None:
        return p.score, p.defender_points, p.penalties
    budget[0] -= 1
    if budget[0] < 0:
        raise TooBig
    maximise = engine.is_defender(p.turn, p.dealer)
    best: Leaf | None = None
    for cards in moves(p):
        child = copy(p)
        child.play(cards)
        leaf = solve(child, budget, alpha, beta)
        if best is None or (leaf[0] > best[0] if maximise else leaf[0] < best[0]):
            best = leaf
        if maximise:
            alpha = max(alpha, leaf[0])
        else:
            beta = min(beta, leaf[0])
        if alpha >= beta:
            break
    assert best is not None  # a seat to move always has a legal play
    return best
