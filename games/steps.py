"""What a handler of the write path (games/services.py) produces: the steps it applied,
or a refusal. Kept apart so seating and moderation handlers can use them directly."""
from dataclasses import dataclass, field

from games import engine


class ActionRejected(Exception):
    """A refused action: nothing changed. `template` is translatable, `params` fill it."""

    def __init__(self, code: str, template: str, **params):
        super().__init__(template.format(**params))
        self.code = code
        self.template = template
        self.params = params

    @classmethod
    def from_rule_error(cls, error: engine.RuleError) -> "ActionRejected":
        return cls(error.code, error.template, **error.params)


@dataclass
class Applied:
    action: dict
    events: list
    facts: dict = field(default_factory=dict)
