"""Runs rule cases (../shared/rules-cases/README.md) against the engine itself.

Used by `manage.py rulecheck` and the tests. Every kind goes through the code the
game uses; `lead` and `declare` cases even run through `apply` on a real Game. A case
may carry `"rules": {option: value, ...}` (docs/house-rules.md); absent means RULES.md.
"""

import json
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from .actions import apply
from .cards import DEALT_CARDS, full_deck
from .errors import Refusal
from .follow import is_legal_follow
from .game import Game
from .order import TrumpContext, context, sort_cards
from .rules import DEFAULT_RULES, Rules, check_rules
from .scoring import hand_outcome, kitty_bonus
from .seats import team_of
from .shapes import shape_of
from .tricks import trick_points, trick_winner

Case = dict[str, Any]  # one rule case, as read from its JSON file


def table(level: str, trump: str | None, dealer: int | None, hand_no: int = 2, rules: Rules = DEFAULT_RULES) -> Game:
    """A bare Game in the middle of a hand (no deck), for rule cases and tests."""
    g = Game.new(rules)
    g.hand_no = hand_no
    g.dealer = dealer
    g.trump = trump
    g.levels = (
        {"0": level, "1": level} if dealer is None else {str(team_of(dealer)): level, str(1 - team_of(dealer)): "2"}
    )
    g.hands = [[], [], [], []]
    g.areas = [[], [], [], []]
    g.declarations = []
    g.trick = []
    g.tricks = []
    g.dealt = DEALT_CARDS
    return g


def case_rules(case: Case) -> Rules:
    """The case's Rules: its "rules" object (option values), or RULES.md without one."""
    values = case.get("rules")
    return check_rules(values) if values else DEFAULT_RULES


def _ctx(case: Case) -> TrumpContext:
    return context(case["level"], case["trump"], case_rules(case).permanent_twos)


def _order(case: Case) -> object:
    return _ctx(case).sort(case["cards"])


def _shape(case: Case) -> object:
    return shape_of(case["cards"], _ctx(case))


def _lead(case: Case) -> object:
    g = table(case["level"], case["trump"], case["dealer"], rules=case_rules(case))
    g.phase = "play"
    g.hands = [list(case["hands"][str(s)]) for s in range(4)]
    g.turn = g.leader = case["seat"]
    try:
        events = apply(g, {"type": "play", "seat": case["seat"], "cards": case["cards"]})
    except Refusal:
        return {"result": "illegal"}
    for e in events:
        if e["type"] == "throw_failed":
            return {"result": "failed", "forced": e["forced"], "defenders_delta": e["defenders_delta"]}
    return {"result": "ok"}


def _follow(case: Case) -> object:
    ok, _ = is_legal_follow(case["lead"], case["hand"], case["play"], _ctx(case))
    return {"legal": ok}


def _trick(case: Case) -> object:
    plays = [[seat, cards] for seat, cards in case["plays"]]
    return {"winner": trick_winner(plays, _ctx(case)), "points": trick_points(plays)}


def _kitty(case: Case) -> object:
    defenders = case["winner_team"] == "defenders"
    return {"bonus": kitty_bonus(case["last_lead"], case["kitty"], _ctx(case), defenders, case_rules(case))}


def _result(case: Case) -> object:
    out = hand_outcome(case["dealer"], case["levels"], case["defenders_score"], case_rules(case))
    return {k: out[k] for k in ("levels", "next_dealer", "winner")}


def _declare(case: Case) -> object:
    first = case["first_hand"]
    dealer = None if first else case["dealer"]
    g = table(case["level"], None, dealer, 1 if first else 2, rules=case_rules(case))
    g.phase = "last_chance"
    g.standing = None
    g.kitty = list(case.get("kitty") or ["S3", "S4", "S5", "S6", "S8", "S9", "SQ", "SA"])
    g.deck = full_deck()  # a stand-in: only a redeal (house rule) shuffles it again
    accepted: list[bool] = []
    for seat, cards in case["steps"]:
        # "Assume every player holds the cards they show."
        hands = list(g.hands or [])
        hands[seat] = hands[seat] + list((Counter(cards) - Counter(hands[seat])).elements())
        g.hands = hands
        try:
            apply(g, {"type": "declare", "seat": seat, "cards": cards})
            accepted.append(True)
        except Refusal:
            accepted.append(False)
    events = apply(g, {"type": "fix_trump"})
    if any(e["type"] == "redealt" for e in events):
        # House rule no_declaration = redeal: the hand is dealt again, trump not fixed.
        return {"accepted": accepted, "trump": None, "dealer": g.dealer, "redealt": True}
    return {"accepted": accepted, "trump": g.trump, "dealer": g.dealer}


KINDS: dict[str, Callable[[Case], object]] = {
    "order": _order,
    "shape": _shape,
    "lead": _lead,
    "follow": _follow,
    "trick": _trick,
    "kitty": _kitty,
    "result": _result,
    "declare": _declare,
}


def _normalise(kind: str, value: object, case: Case) -> object:
    """Forced cards are a multiset: compare them in display order."""
    if kind == "lead" and isinstance(value, dict) and "forced" in value:
        twos = case_rules(case).permanent_twos
        value = dict(value, forced=sort_cards(value["forced"], case["level"], case["trump"], twos))
    return value


def run_case(case: Case) -> tuple[bool, object, object]:
    """(passed, expected, got) for one case; an unknown kind or an exception fails."""
    expected = case.get("expect")
    kind = case.get("kind")
    fn = KINDS.get(kind) if isinstance(kind, str) else None
    if fn is None or not isinstance(kind, str):
        return False, expected, f"unknown kind {kind!r}"
    try:
        got = fn(case)
    except Exception as exc:  # a crash is a failure, reported on the case's line
        return False, expected, f"error: {type(exc).__name__}: {exc}"
    try:
        passed = _normalise(kind, got, case) == _normalise(kind, expected, case)
    except Exception as exc:
        return False, expected, f"error: {type(exc).__name__}: {exc}"
    return passed, expected, got


def case_files(paths: Iterable[str | Path]) -> list[Path]:
    """The *.json files named by `paths` (files, or folders searched recursively)."""
    files: list[Path] = []
    for p in map(Path, paths):
        files += sorted(p.rglob("*.json")) if p.is_dir() else [p]
    return files


def run_paths(paths: Iterable[str | Path]) -> tuple[int, list[tuple[str, object, object]]]:
    """Run every case of every file; returns (passed, failures) where each failure is
    (id, expected, got). An unreadable file counts as one failure."""
    passed = 0
    failures: list[tuple[str, object, object]] = []
    for f in case_files(paths):
        try:
            cases = json.loads(Path(f).read_text(encoding="utf-8"))
            if not isinstance(cases, list):
                raise ValueError("a case file holds a JSON list")
        except Exception as exc:
            failures.append((str(f), "a JSON list of cases", f"error: {exc}"))
            continue
        for case in cases:
            ok, expected, got = (
                run_case(case) if isinstance(case, dict) else (False, None, "error: a case is a JSON object")
            )
            if ok:
                passed += 1
            else:
                cid = case.get("id", "?") if isinstance(case, dict) else "?"
                failures.append((f"{cid}", expected, got))
    return passed, failures


def report(paths: Iterable[str | Path], write: Callable[[str], object]) -> int:
    """Run and print like the README says; returns the number of failed cases."""
    passed, failures = run_paths(paths)
    for cid, expected, got in failures:
        write(
            f"FAIL {cid}: expected {json.dumps(expected, ensure_ascii=False)} got {json.dumps(got, ensure_ascii=False)}"
        )
    write(f"rulecheck: {passed} passed, {len(failures)} failed")
    return len(failures)
