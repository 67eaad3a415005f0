"""What every multi-host test ends with: each accepted action stored exactly once (the log
folds to the snapshot, versions 1…N once each), the table not stalled (its hand ended),
and each socket showing what a fresh socket of its seat is shown."""

import asyncio
import random

from asgiref.sync import sync_to_async

from games.models import TableEvent
from tests.multihost.conftest import open_client
from tests.table_driver import assert_log_whole, choose_action, load

DONE = ("scored", "finished")


def shown(client) -> tuple[int, dict[str, str]]:
    """What the client's page shows, from the states of its latest connection: each state
    replaces the regions it carries; one older than the shown version is ignored
    (docs/protocol.md)."""
    version, regions = -1, {}
    for message in client.received[client.connected_at[-1] :]:
        if message["type"] == "state" and message["version"] >= version:
            version = message["version"]
            regions.update(message["html"])
    return version, regions


async def assert_sockets_show_fresh_renders(site, table_id, clients, users, timeout=20.0, looks=3):
    """Each client shows what a fresh socket of its user is shown, at one version. A table
    that moved on between the two reads (a bot table's next hand starts after a pause) is
    looked at again, up to `looks` times."""
    table, _game = await load(table_id)
    for client, user in zip(clients, users, strict=True):
        await client.wait_for(lambda m: m["type"] == "state" and m["version"] >= table.version, timeout=timeout)
        for _look in range(looks):
            fresh_client = await open_client(site, table_id, user, reconnect=False)
            fresh = await fresh_client.wait_for(lambda m: m["type"] == "state")
            await fresh_client.close()
            at = fresh["version"]
            await client.wait_for(lambda m, at=at: m["type"] == "state" and m["version"] >= at, timeout=timeout)
            version, regions = shown(client)
            if version == at:
                break
        assert (version, regions) == (fresh["version"], fresh["html"]), f"{user}'s socket differs from a fresh one"


async def assert_whole(site, table_id, clients, users):
    await assert_log_whole(table_id)
    await assert_sockets_show_fresh_renders(site, table_id, clients, users)
    for client in clients:
        await client.close()


def once_only_move(game, seat):
    """A legal play of `seat` made of cards it holds one copy of each (two decks: a seat may
    hold a card twice), so that it is in this hand's log at most once; None if it has none."""
    rng = random.Random(3)
    for _attempt in range(200):
        move = choose_action(game, seat, rng)
        if all(game.hands[seat].count(card) == 1 for card in move["cards"]):
            return move
    return None


@sync_to_async
def logged_at(table_id, seat, cards) -> list[int]:
    """The versions at which this play of this seat is in the log."""
    rows = TableEvent.objects.filter(table_id=table_id, action={"type": "play", "seat": seat, "cards": cards})
    return list(rows.values_list("seq", flat=True))


@sync_to_async
def log_rows(table_id) -> list[tuple[int, dict]]:
    return list(TableEvent.objects.filter(table_id=table_id).order_by("seq").values_list("seq", "action"))


async def eventually(check, timeout=10.0, what="it"):
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        assert loop.time() < deadline, f"{what} did not happen within {timeout} s"
        await asyncio.sleep(0.05)


class BotTable:
    """An all-bot table beside the people's, watched by a spectator through the front: its
    clock runs on the host of that socket, so a fault there must not stall it."""

    @classmethod
    async def start(cls, site, owner, spectator) -> "BotTable":
        from games.models import Seat
        from games.runtime import writer
        from games.runtime.commands import Issuer
        from tests.conftest import make_table

        def create():
            table = make_table(owner, pace_ms=20, window_ms=100)
            Seat.objects.filter(table=table).update(bot=Seat.Bot.BASIC)
            writer.table_act(
                table_id=table.pk, action={"type": "start_match"}, expected_version=None, issuer=Issuer.SYSTEM
            )
            return table

        made = cls()
        made.table = await sync_to_async(create)()
        made.user = spectator
        made.client = await open_client(site, made.table.pk, spectator)
        return made

    async def version(self) -> int:
        return (await load(self.table.pk))[0].version

    async def assert_goes_on_and_whole(self, site, since: int, timeout=40.0):
        """It moved on after `since` and finished a hand (a quiet moment: the next one waits),
        its log is whole, and the spectator shows what a fresh socket is shown."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            table, game = await load(self.table.pk)
            if table.version > since and game is not None and game.phase in DONE:
                break
            assert loop.time() < deadline, f"the bot table stalled at version {table.version}"
            await asyncio.sleep(0.1)
        await assert_whole(site, self.table.pk, [self.client], [self.user])
