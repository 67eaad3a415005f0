"""What a handler of the write path (games/runtime/writer.py) produces: the steps it applied,
or a refusal. Kept apart so seating and moderation handlers can use them directly."""
from dataclasses import dataclass, field

from games import engine

MAX_CARDS = 33  # the most a seat ever holds (the dealer with the kitty, RULES §4.1)


def is_card_list(value) -> bool:
    """The shape every client-sent selection must have before anything looks at it."""
    return isinstance(value, list) and len(value) <= MAX_CARDS and all(isinstance(c, str) for c in value)


class ActionRejected(Exception):
    """A refused action: nothing changed. `template` is translatable, `params` fill it."""

    def __init__(self, code: str, template: str, **params):
        super().__init__(template.format(**params))
        self.code = code
        self.template = template
        self.params = params

    @classmethod
    def from_rule_error(cls, error: engine.Refusal) -> "ActionRejected":
        return cls(error.code, error.template, **error.params)


@dataclass
class Applied:
    action: dict
    events: list
    facts: dict = field(default_factory=dict)
