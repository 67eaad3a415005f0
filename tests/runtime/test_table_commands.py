"""The write path's commands (games/runtime/commands.py): who may issue each is checked
before its handler runs, and an action's work is done once (one parse of the game, one
decision of a bot's declaration, made outside the lock)."""

import time

import pytest
from django.utils import timezone

from games import bots, engine
from games.engine import Refusal
from games.models import Table, TableEvent
from games.runtime import clock, writer
from games.runtime.commands import Issuer, Role, command_for, command_names
from tests.conftest import make_table
from tests.runtime.test_table_clock import bot_table
from tests.table_driver import with_bot_move

pytestmark = pytest.mark.django_db


def _refused(table, action, **who) -> str:
    with pytest.raises(Refusal) as refused:
        writer.table_act(table_id=table.pk, action=action, expected_version=None, **who)
    return refused.value.code


def test_every_command_declares_who_may_issue_it():
    for name in command_names():
        command = command_for(name)
        assert command.may and all(isinstance(role, Role) for role in command.may), name
    assert command_for("play").may == {Role.SEATED}
    assert command_for("start_match").may == {Role.OWNER, Role.SYSTEM}
    assert command_for("kick").may == {Role.MODERATOR}
    assert command_for("bot_move").may == {Role.BOT}
    assert command_for("nonsense") is None and command_for(None) is None


def test_the_issuer_is_checked_before_the_handler(players):
    table = make_table(players[0], players=players[:3])
    # A seated player who does not own the table: not the owner's commands.
    assert _refused(table, {"type": "add_bot", "seat": 3}, user=players[1]) == "not_owner"
    assert _refused(table, {"type": "start_match"}, user=players[1]) == "not_owner"
    # The server's own issuers may not play for a seat, whatever seat the action names.
    writer.table_act(
        table_id=table.pk, action={"type": "add_bot", "seat": 3}, expected_version=None, issuer=Issuer.SYSTEM
    )
    writer.table_act(table_id=table.pk, action={"type": "start_match"}, expected_version=None, issuer=Issuer.SYSTEM)
    version = Table.objects.get(pk=table.pk).version
    for issuer in (Issuer.CLOCK, Issuer.BOT, Issuer.SYSTEM):
        action = {"type": "declare", "seat": 0, "cards": []}
        assert _refused(table, action, issuer=issuer) == "not_seated", issuer
    # ...nor a person the clock's or the bots' steps.
    assert _refused(table, {"type": "fix_trump"}, user=players[0]) == "not_allowed"
    assert _refused(table, {"type": "bot_declare", "move": None}, user=players[0]) == "not_allowed"
    assert Table.objects.get(pk=table.pk).version == version


def test_an_action_copies_no_state_and_returns_the_snapshot_it_stored(
    players, fast_clock, django_capture_on_commit_callbacks
):
    table = make_table(players[0], players=players, pace_ms=1)
    with django_capture_on_commit_callbacks(execute=True):
        held = writer.table_act(
            table_id=table.pk, action={"type": "start_match"}, expected_version=None, user=players[0]
        ).table
    before = engine.Game.from_json(held.table.state).to_json()
    time.sleep(0.15)  # the whole deal is out (1 ms a card)
    game = clock.live(held.table, held.game, timezone.now())
    seat, option = next((s, o) for s in range(4) for o in engine.view(game, s)["can_declare"])
    with pytest.raises(Refusal):  # a refused action: the held table untouched
        writer.table_act(
            table_id=table.pk,
            action={"type": "declare", "cards": ["SA", "SA", "SA"]},
            expected_version=held.version,
            user=players[seat],
            held=held,
        )
    with django_capture_on_commit_callbacks(execute=True):
        after = writer.table_act(
            table_id=table.pk,
            action={"type": "declare", "cards": option},
            expected_version=held.version,
            user=players[seat],
            held=held,
        ).table
    # The writer stepped a Game over the snapshot and stored the new one as it is: what the
    # declaration did not change is the very object the old version holds, not a copy.
    assert after.table.state["deck"] is held.table.state["deck"]
    stored = Table.objects.get(pk=table.pk)
    assert after.version == stored.version == held.version + 2  # the deal caught up, the declaration
    assert after.game.to_json() == engine.Game.from_json(stored.state).to_json()
    assert after.game.hands is after.table.state["hands"]  # one copy of the state in memory
    # The old entry is untouched: the new version shares its unchanged values, never changes them.
    assert after.game is not held.game and held.game.to_json() == before == held.table.state


def test_a_bots_declaration_is_decided_once_and_outside_the_lock(players, monkeypatch):
    table = bot_table(players[0])
    decisions = []
    real = bots.declaration
    monkeypatch.setattr(bots, "declaration", lambda **kw: decisions.append(kw["seat"]) or real(**kw))
    table = Table.objects.get(pk=table.pk)
    seats = list(table.seats.order_by("position"))
    step = clock.due_step(table, engine.Game.from_json(table.state), seats, timezone.now())
    assert step.action == {"type": "bot_declare"} and step.issuer is Issuer.BOT
    assert decisions == []  # saying the bots may look is not deciding for them
    action = with_bot_move(table, step.action)  # the runner's one decision, outside the lock
    assert 1 <= len(decisions) <= 3 and set(decisions) <= {1, 2, 3}
    decisions.clear()
    if action["move"] is None:
        # They declined: nothing is due for the bots until the next look.
        later = clock.due_step(table, engine.Game.from_json(table.state), seats, timezone.now(), looked=step.look)
        assert later.action is None or later.action["type"] != "bot_declare"
        return
    writer.table_act(table_id=table.pk, action=action, expected_version=table.version, issuer=Issuer.BOT)
    assert decisions == []  # under the lock only the engine checks the decided move
    assert TableEvent.objects.filter(table=table).order_by("-seq").first().action == action["move"]
