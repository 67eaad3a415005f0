"""A change made through the table's room is pushed from the table its write returned: the
push asks nothing more of the process's one database thread (games/web/socket_dispatch.py,
games/runtime/actor.py), whose queue at 100 busy tables would delay every push."""

import pytest
from asgiref.sync import sync_to_async

from games.runtime import table_state
from games.web import rooms
from tests.conftest import make_table, ws_client

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_change_through_the_room_is_pushed_without_reading_the_table_again(players, monkeypatch):
    table = await sync_to_async(make_table)(players[0], players=players[:3])
    client = await ws_client(f"/ws/table/{table.pk}/", players[0])
    first = await client.receive()
    assert first["type"] == "state"
    read, reads = table_state.read, []

    def read_counted(table_id):
        reads.append(table_id)
        return read(table_id)

    monkeypatch.setattr(table_state, "read", read_counted)
    # The fourth player sits down (from the lobby's socket, say: through the table's room).
    action = {"type": "sit", "seat": 3}
    await rooms.here().act(table.pk, action=action, expected_version=None, user=players[3])
    pushed = await client.receive(timeout=5)
    assert pushed["type"] == "state" and pushed["version"] == first["version"] + 1
    assert "west" in pushed["html"]["players"]  # the new player's seat, rendered from the written table
    assert reads == [table.pk]  # the write path's own read of a command without a version; no other
    await client.close()
