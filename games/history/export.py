"""Match files people can take with them (docs/history.md, "Match files"): a finished
match as a documented, versioned JSON document, and the check that an uploaded one folds
through the rules engine.

The file's `actions` are the match's engine actions from the log (the one source of
truth); its `hands` are what folding them gives, for readers and other programs. An
uploaded file is refused unless its actions fold and reproduce its hands exactly.
"""

from typing import Any

from django.utils.translation import gettext_noop

from games import engine
from games.engine import Refusal
from games.history import replay

FORMAT = "double-up-match"
VERSION = 1
RULEBOOK = "RULES.md"  # the engine's rulebook; `rules.engine` holds the house rules (docs/house-rules.md)
MAX_ACTIONS = 20_000  # a long match has a few thousand
# A hand's result in the file: the engine's HandResult but for what the hand says already
# (its "number") or what follows from its dealer.
NOT_IN_FILE_RESULT = ("hand_no", "dealer_team")


class MatchFileError(Refusal):
    """The file is not a match this site can replay: the site's one refusal, saying why."""

    def __init__(self, template: str, **params: Any):
        super().__init__("bad_match_file", template, **params)


def hands_of(actions: list[dict], rules: engine.Rules = engine.DEFAULT_RULES) -> list[dict]:
    """Every finished hand of these engine actions under `rules`: deal, declarations, flip,
    bury, plays, tricks and result, as folding them through the engine gives them."""
    game = engine.Game.new(rules)
    hands: list[dict] = []
    current: dict | None = None
    for index, action in enumerate(actions):
        try:
            events = engine.apply(game, action)
        except engine.Refusal as refusal:
            raise MatchFileError(
                gettext_noop("Step {step} ({kind}) breaks the rules: {reason}"),
                step=index + 1,
                kind=action.get("type"),
                reason=str(refusal),
            ) from refusal
        for event in events:
            kind = event["type"]
            if kind == "hand_started":
                current = {
                    "number": event["hand_no"],
                    "seed": action["seed"],
                    "deck": list(game.deck or ()),
                    "plays": [],
                }
                current["tricks"] = []
            elif current is None:
                continue
            elif kind == "played":
                current["plays"].append([event["seat"], list(event["cards"])])
            elif kind == "throw_failed":
                current.setdefault("failed_throws", []).append({"seat": event["seat"], "penalty": event["penalty"]})
            elif kind == "trick_won":
                current["tricks"].append({"winner": event["seat"], "points": event["points"]})
            elif kind == "hand_scored":
                result = engine.HandResult.from_json(event["result"]).to_json()
                current["result"] = {name: value for name, value in result.items() if name not in NOT_IN_FILE_RESULT}
                hands.append(current)
                current = None
    return hands


def match_document(*, actions: list[dict], players: list[dict], match: dict, table: dict, rules: engine.Rules) -> dict:
    """The file: everything a replay needs (the rules it was played under too), and the
    hands spelled out."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": {"rulebook": RULEBOOK, "engine": rules.to_json(), "table": table},
        "match": match,
        "players": players,
        "actions": actions,
        "hands": hands_of(actions, rules),
    }


def rules_of(data: dict) -> engine.Rules:
    """The engine Rules a match file was played under, or MatchFileError."""
    written = data.get("rules")
    unknown = MatchFileError(gettext_noop("The match was played under rules this site does not know."))
    if not isinstance(written, dict) or written.get("rulebook") != RULEBOOK:
        raise unknown
    try:
        return engine.Rules.from_json(written.get("engine"))
    except (Refusal, TypeError, ValueError) as error:
        raise unknown from error


def check_document(data: object) -> dict:
    """The uploaded document if it is a match file this site can replay, else MatchFileError."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise MatchFileError(gettext_noop("This is not a Double Up match file."))
    if data.get("version") != VERSION:
        raise MatchFileError(
            gettext_noop("Match files of version {version} cannot be read here."), version=data.get("version")
        )
    rules = rules_of(data)
    actions, hands, players = data.get("actions"), data.get("hands"), data.get("players")
    if not isinstance(actions, list) or not all(isinstance(a, dict) for a in actions) or len(actions) > MAX_ACTIONS:
        raise MatchFileError(gettext_noop("The file's actions are missing or malformed."))
    if not isinstance(players, list) or len(players) != 4 or not all(isinstance(p, dict) for p in players):
        raise MatchFileError(gettext_noop("The file must name four players."))
    unknown = next((a.get("type") for a in actions if a.get("type") not in engine.ACTION_TYPES), None)
    if unknown is not None:
        raise MatchFileError(gettext_noop("Unknown action {kind}."), kind=unknown)
    folded = hands_of(actions, rules)
    if not isinstance(hands, list) or len(hands) != len(folded):
        raise MatchFileError(
            gettext_noop("The file lists {listed} hands, but its actions play {played}."),
            listed=len(hands) if isinstance(hands, list) else 0,
            played=len(folded),
        )
    for written, played in zip(hands, folded):
        if written != played:
            raise MatchFileError(
                gettext_noop("Hand {n} in the file is not what its actions play (deal, plays or score differ)."),
                n=played["number"],
            )
    if not folded:
        raise MatchFileError(gettext_noop("The file has no finished hand."))
    return data


def hand_actions(actions: list[dict], number: int) -> tuple[list[dict], list[dict]]:
    """The actions before hand `number`'s `start_hand`, and the hand's own (for the replay)."""
    starts = [i for i, action in enumerate(actions) if action.get("type") == "start_hand"]
    if not 1 <= number <= len(starts):
        raise MatchFileError(gettext_noop("There is no hand {n} in this file."), n=number)
    begin = starts[number - 1]
    end = starts[number] if number < len(starts) else len(actions)
    return actions[:begin], actions[begin:end]


def frames_of(document: dict, number: int) -> list[replay.Frame]:
    """The replay of hand `number` of a checked document, under its rules."""
    before, own = hand_actions(document["actions"], number)
    return replay.hand_frames(before, own, rules_of(document))
