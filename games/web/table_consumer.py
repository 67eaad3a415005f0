"""The table's websocket: parse → call the write path → render this reader's own view.

Thin by design (STYLE): rules live in games/engine, writes in games/runtime/writer.py, views
in games/web/rendering.py. Group messages carry only "changed, version N"; each socket
renders its own seat's view from the database (RULES §9), so no private data ever
travels through Redis.
"""

import asyncio
import json
import logging
import time

import orjson
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import Error as DatabaseError
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import bots, engine, events, selectors
from games.analysis.coach import CoachQuestion
from games.analysis.selectors import hand_coach_seed
from games.analysis.why import explain
from games.engine import Refusal
from games.models import Table
from games.runtime import clock, lifecycle, presence, runner, table_cache, thinking, writer
from games.runtime.commands import Issuer, is_card_list
from games.web import rendering
from games.web.i18n import language_for_scope, translate_notice, translate_rejection
from games.web.layer_watch import LayerGroups
from games.web.socket_dispatch import DirectDispatch
from games.web.socket_input import JsonInput

log = logging.getLogger(__name__)
CLIENT_ACTIONS = {
    "declare",
    "bury",
    "play",
    "play_forced",
    "sit",
    "stand",
    "add_bot",
    "bot_level",
    "remove_bot",
    "start_match",
}
# Spectators of a table see the same thing: one render per (table, version, cards dealt,
# language, owner of a waiting table or not) serves them all (the view has no hand, RULES §9). Only the
# latest is kept: older versions are never shown again.
_SPECTATOR_RENDERS: dict[tuple, tuple] = {}  # (table, language, owner?) → ((version, dealt), regions JSON-encoded)
_SPECTATOR_RENDERS_MAX = 5000


class TableConsumer(LayerGroups, DirectDispatch, JsonInput, AsyncWebsocketConsumer):
    async def connect(self):
        self.user = self.scope["user"]
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.version = -1
        self.early: list | None = []  # the hub's messages that came before the first state was sent
        self.shown: dict[str, str] = {}  # region → its HTML (JSON-encoded) as this page has it now
        self.deal_task = None
        self.refreshed = False  # its spectator row kept fresh (games/runtime/presence.py)
        self.watching = False  # counted as a spectator (games/runtime/presence.py)
        self.attached = False  # counted by the clock runner
        self.person = False  # counted at the table (games/runtime/lifecycle.py)
        self.online = None  # friends see this user here (games/runtime/presence.py)
        self.hinting = False  # a hint is being thought out for this socket
        self.last_hint = None  # (version, the hint message) last sent
        if not self.user.is_authenticated:
            await self.close(code=4401)
            return
        self.user_id = self.user.pk
        invite = _query_param(self.scope, "invite")
        entered = await database_sync_to_async(self._enter)(invite)
        if entered is None:
            await self.close(code=4403)
            return
        self.language, loaded, self.watching = entered
        # Join the table (its hub) before the first snapshot, so no change can slip between (STYLE pitfall 2).
        if not await self.join_groups(events.user_group(self.user.pk), table=self.table_id):
            if self.watching:  # refused: Redis is away; the page tries again
                await database_sync_to_async(presence.spectator_leave)(channel_name=self.channel_name)
            await self.close()
            return
        await self.accept()
        await self.push_state(at_least=loaded.version)  # the read _enter just made, or newer
        early, self.early = self.early or [], None
        for message in early:  # in the order they came, as a group's queue would have kept them
            await self.dispatch(message)
        if self.watching and not self.refreshed:  # counted by _enter
            await self._watching_changed()
        runner.attach(self.table_id, loaded.version)
        self.attached = True
        self.person = True
        lifecycle.person_arrived(self.table_id)
        # Friends see where they are; in a task of its own, so that entering a table waits
        # for nothing more (a reconnect storm enters hundreds at once, docs/performance.md).
        self.online = asyncio.create_task(self._note_online())
        seat = selectors.seat_for(loaded.seats, self.user)
        if seat is not None and seat.autoplay:
            await self._act({"type": "resume"}, None)

    async def disconnect(self, code):
        if self.deal_task:
            self.deal_task.cancel()
            self.deal_task = None
        if self.attached:  # first: nothing that fails below may leave the clock counting this socket
            self.attached = False
            runner.detach(self.table_id)
        await self.leave_groups()  # and the table's hub
        if self.watching:
            await self._set_watching(False)
        if self.person:
            self.person = False
            if self.online:
                self.online.cancel()
                self.online = None  # else its CancelledError holds this consumer in a cycle
            presence.stop_online(self.channel_name)
            await lifecycle.person_left(self.table_id)
            await database_sync_to_async(presence.user_gone)(user_id=self.user.pk, channel_name=self.channel_name)

    # --- incoming -------------------------------------------------------------------

    async def receive(self, text_data=None, bytes_data=None):
        try:
            await self._receive(text_data, bytes_data)
        except DatabaseError as error:
            # The database is away (restarting): the write's transaction never committed,
            # so nothing changed; say so, keep the socket, and let the player try again.
            log.warning("table %s: database error, answered 'unavailable': %r", self.table_id, error)
            await self.send_error(
                "unavailable",
                _("The server cannot reach its database just now, so nothing changed. Please try again in a moment."),
            )

    async def _receive(self, text_data, bytes_data):
        message = await self.read_message(text_data, bytes_data)
        if message is None:
            return
        kind = message["action"]
        if kind == "sync":
            return await self.push_state(force=True)
        if kind == "classify":
            return await self.classify(message.get("cards"))
        if kind == "hint":
            return await self.hint()
        if kind == "ready":  # carries the hand it is for, not a version (games/runtime/readiness.py)
            return await self._act({"type": "ready", "hand": message.get("hand")}, None)
        if kind not in CLIENT_ACTIONS:
            return await self.send_error("unknown_action", _("Unknown action."))
        version = message.get("version")
        if not isinstance(version, int):
            return await self.send_error("bad_version", _("An action must carry the version it was made against."))
        action = {key: message[key] for key in ("cards", "seat", "level") if key in message}
        action["type"] = kind
        await self._act(action, version)

    async def _act(self, action, version):
        try:
            await writer.table_act_async(
                table_id=self.table_id,
                action=action,
                expected_version=version,
                user=self.user,
                issuer=Issuer.PLAYER,
            )
        except Refusal as rejected:
            await self.send_error(rejected.code, translate_rejection(rejected, self.language), rejected.rule)
            if rejected.code == "stale_version":
                await self.push_state(force=True)

    async def classify(self, cards):
        if not is_card_list(cards):
            return await self.send_error("bad_action", _("An action needs a list of cards."))
        html, legal = self._classify(await table_cache.latest(self.table_id, self.version), cards)
        await self.send(text_data=json.dumps({"type": "selection", "html": html, "legal": legal}))

    async def hint(self):
        """The coach's play for this seat and why (no state change): the Hint and Why?
        buttons of casual tables. The coach is the analysis's evaluator with its budget and
        seed (games/analysis/coach.py, docs/analysis.md), so a followed hint is never marked
        a mistake afterwards; it sees only this seat's Observation (RULES §9) and thinks
        where the searching bots think (games/runtime/thinking.py), never on this loop.
        One hint at a time per socket; asked again at the same version, the same answer."""
        if self.hinting:
            return
        self.hinting = True
        try:
            loaded = await table_cache.latest(self.table_id, self.version)
            if self.last_hint and loaded is not None and self.last_hint[0] == loaded.version:
                return await self.send(text_data=self.last_hint[1])
            obs = self._hint_view(loaded)
            seed = await database_sync_to_async(hand_coach_seed)(table_id=self.table_id, hand_no=obs.hand_no)
            level, budget = settings.GAMES_ANALYSIS_LEVEL, settings.GAMES_ANALYSIS_BUDGET
            advice = await thinking.coach(CoachQuestion(obs, level, budget, seed))
            with translation.override(self.language):
                why = explain(advice.facts)
            message = json.dumps({"type": "hint", "version": loaded.version, "cards": advice.cards, "why": why})
            self.last_hint = (loaded.version, message)
            await self.send(text_data=message)
        except Refusal as refused:
            await self.send_error(refused.code, translate_rejection(refused, self.language))
        finally:
            self.hinting = False

    # --- outgoing -------------------------------------------------------------------

    async def hear(self, message):
        """A message of the table's group, from its hub (games/web/table_hub.py): held until
        the socket has been accepted and sent its first state, then handled in order."""
        if self.early is not None:
            self.early.append(message)
        else:
            await self.dispatch(message)

    async def table_changed(self, event):
        """From the table's hub (games/web/table_hub.py), which has poked the clock."""
        if event["version"] > self.version:
            await self.push_state(at_least=event["version"])

    async def table_closed(self, event):
        """Moderation: the room was closed or this user removed; say why and hang up."""
        if event.get("user_id") not in (None, self.user.pk):
            return
        message = translate_notice(event, self.language)
        await self.send(text_data=json.dumps({"type": "closed", "message": message}))
        await self.close(code=4003)

    user_removed = table_closed

    async def push_state(self, force=False, at_least=None):
        loaded = await table_cache.latest(self.table_id, at_least)
        ratings = []
        if loaded is not None and loaded.table.status == Table.Status.FINISHED:
            ratings = await database_sync_to_async(rendering.finished_rating_changes)(loaded.table)
        snapshot = self._snapshot(loaded, ratings)  # renders here
        if snapshot is None:
            await self.close(code=4404)
            return
        version, regions, deal_plan, seat = snapshot
        if (seat is None) != self.watching:
            await self._set_watching(seat is None)
        if version < self.version and not force:
            return
        if force or version < self.version:
            self.shown = {}  # a resync (or an older state after a newer one): every region
        self.version = version
        # Only the regions that differ from what this page shows: the page keeps the others
        # (static/js/table.js patches the regions a state carries). Each region is JSON
        # already, encoded once for whoever is shown it. "now" (the server's clock, ms) lets
        # the page count down to the deadlines the regions carry.
        changed = [f'"{name}": {html}' for name, html in regions.items() if self.shown.get(name) != html]
        self.shown = regions
        now_ms = int(time.time() * 1000)
        html = "{" + ", ".join(changed) + "}"
        await self.send(text_data=f'{{"type": "state", "version": {version}, "now": {now_ms}, "html": {html}}}')
        if self.deal_task:
            self.deal_task.cancel()
            self.deal_task = None
        if deal_plan:
            self.deal_task = asyncio.create_task(self._deal(version, *deal_plan))

    async def _deal(self, version, game, seat, upcoming, shown):
        """Push this seat its own cards as the clock deals them: no DB, no group message.
        `shown`: the declarations the state just sent offered."""
        for index, due in upcoming:
            delay = (due - timezone.now()).total_seconds()
            if delay > 0:
                await asyncio.sleep(delay)
            game, _events = engine.step(game, {"type": "deal", "upto": index + 1})
            view = engine.view(game, seat)
            with translation.override(self.language):
                push = rendering.card_arrival(view, game.deck[index], shown)
            shown = view["can_declare"]
            await self.send(text_data=json.dumps({"type": "card", "version": version, "dealt": index + 1, **push}))

    # --- database (short sync calls, STYLE pitfall 4) ---------------------------------

    def _enter(self, invite):
        """(The reader's language, the table as read now, whether they watch) if they may
        enter, else None. A spectator is counted in the same trip to the database: after a
        restart every socket enters at once, one after another in that thread."""
        entry = selectors.socket_entry(user=self.user, table_id=self.table_id)
        loaded = table_cache.current(self.table_id, entry.version)
        if (
            loaded is None
            or entry.banned
            or not selectors.table_access(
                table=loaded.table,
                user=self.user,
                invite_code=invite,
                seats=loaded.seats,
                kicked=entry.kicked,
            )
        ):
            return None
        lifecycle.people_seen([self.table_id])  # before the socket is accepted
        watching = selectors.seat_for(loaded.seats, self.user) is None
        if watching:
            presence.spectator_watch(table_id=self.table_id, channel_name=self.channel_name, user=self.user)
        return language_for_scope(self.scope, self.user, saved=entry.language), loaded, watching

    def _snapshot(self, loaded, rating_changes=()):
        if loaded is None or loaded.table.status == Table.Status.CLOSED:
            return None
        table, seats = loaded.table, loaded.seats
        seat = selectors.position_of(seats, self.user_id)
        game = clock.live(table, loaded.game, timezone.now()) if loaded.game else None
        context_args = {
            "table": table,
            "seats": seats,
            "viewer_seat": seat,
            "user": self.user,
            "rating_changes": rating_changes,
        }
        # The owner's controls (seat bots, start) exist only while the table waits: after
        # that an owner who watches sees what every spectator sees, and shares their render.
        key = (table.pk, self.language, table.status == Table.Status.WAITING and self.user_id == table.owner_id)
        stamp = (table.version, game.dealt if game else 0)
        shared = _SPECTATOR_RENDERS.get(key) if seat is None else None
        regions = shared[1] if shared and shared[0] == stamp else None
        view = None
        if regions is None:
            view = engine.view(game, seat) if game else None
            with translation.override(self.language):
                rendered = rendering.render_view(view=view, **context_args)
            # orjson: a tenth of the cost of json.dumps, and Chinese is sent as it is, not escaped.
            regions = {name: orjson.dumps(html).decode() for name, html in rendered.items()}
            if seat is None:
                if len(_SPECTATOR_RENDERS) >= _SPECTATOR_RENDERS_MAX:
                    _SPECTATOR_RENDERS.clear()
                _SPECTATOR_RENDERS[key] = (stamp, regions)
        deal_plan = None
        if game is not None and game.phase == "deal" and seat is not None:
            upcoming = [
                (index, clock.card_due_at(table, index))
                for index, (receiver, _card) in enumerate(game.deal_order())
                if receiver == seat and index >= game.dealt
            ]
            # _deal steps on from this game without changing it (engine.step), from the
            # declarations this view offered (a seat's render is never shared).
            deal_plan = (game, seat, upcoming, view["can_declare"])
        return table.version, regions, deal_plan, seat

    async def _set_watching(self, watching: bool):
        """Count this socket as a spectator (or stop)."""
        self.watching = watching
        if watching:
            await database_sync_to_async(presence.spectator_watch)(
                table_id=self.table_id,
                channel_name=self.channel_name,
                user=self.user,
            )
        else:
            await database_sync_to_async(presence.spectator_leave)(channel_name=self.channel_name)
        await self._watching_changed()

    async def _watching_changed(self):
        """The spectator row was just written or deleted: keep it fresh while watching, and
        tell the lobby."""
        presence.keep_watching(self.channel_name, self.watching)
        self.refreshed = self.watching
        await events.send(group=events.LOBBY_GROUP, message=events.lobby_changed())

    async def _note_online(self):
        """Friends see this user here from now on (refreshed with this process's other sockets)."""
        await database_sync_to_async(presence.user_seen)(
            user_id=self.user_id, channel_name=self.channel_name, table_id=self.table_id
        )
        presence.keep_online(channel_name=self.channel_name, user_id=self.user_id, table_id=self.table_id)

    def _classify(self, loaded, cards):
        seat = selectors.seat_of(loaded.seats, self.user) if loaded else None
        if seat is None or loaded.game is None:
            return "", False
        game = clock.live(loaded.table, loaded.game, timezone.now())
        result = engine.classify(game, seat, cards)
        with translation.override(self.language):
            return rendering.render_selection(result), bool(result["legal"])

    def _hint_view(self, loaded) -> bots.Observation:
        """What this seat sees, for the coach, or a Refusal saying why there is no hint."""
        if loaded is not None and not rendering.hints_allowed(loaded.table):
            # Said first: at a rated table the answer is never "wait for your turn".
            raise Refusal("hints_off", gettext_noop("Hints are only available at casual tables."))
        seat = selectors.seat_of(loaded.seats, self.user) if loaded else None
        game = loaded.game if loaded else None
        if seat is None or game is None or game.phase not in ("bury", "play") or game.turn != seat:
            raise Refusal("no_hint", gettext_noop("No hint now: it is not your turn to play or bury."))
        return bots.observe(game, seat)


def _query_param(scope, name):
    from urllib.parse import parse_qs

    values = parse_qs(scope.get("query_string", b"").decode()).get(name)
    return values[0] if values else None
