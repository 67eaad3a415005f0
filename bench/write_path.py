"""The server's work for one accepted action, in one process and without sockets.

    .venv/bin/python bench/write_path.py --tables 20 --actions 3000

bench/live.py measures an action end to end (one daphne process, hundreds of sockets); this
splits what happens inside, in the order the server does it, each timed in CPU seconds of
this process (and of its PostgreSQL backend) over many actions of all-bot tables:
- the basic bot's decision (`thinking.answer`, which the live server makes for each bot move),
- the write path (`writer.table_act`: handler, then log and row in one compare-and-set statement),
- the spectators' render of the new version (`table_context` + the four regions, JSON-encoded:
  what one spectator socket renders and the others of its table reuse),
- the PostgreSQL backend's own CPU for the write (from /proc; same machine only).
Own database (default postgres://postgres@127.0.0.1:5432/doubleup_bench_write): its tables are
deleted at start. The clock's pauses are skipped (every due bot step is taken at once), so the
tables run through their hands as fast as this process acts.
"""

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from live_data import CannotRun, check_services, setup_django  # noqa: E402
from live_measure import cpu_seconds  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--actions", type=int, default=3000, help="accepted actions measured (after a warm-up)")
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/doubleup_bench_write")
    parser.add_argument("--json", help="also write the numbers to this file")
    parser.add_argument(
        "--server-side-binding", action="store_true", help="psycopg's server-side binding (Django's OPTIONS)"
    )
    args = parser.parse_args()
    os.environ.setdefault("GAMES_DECK_SEED", "write-path")
    try:
        check_services(args.database_url, None, flush=False)  # no Redis: one process, no sockets
    except CannotRun as error:
        print(f"bench/write_path.py: cannot run: {error}", file=sys.stderr)
        return 2
    setup_django(args.database_url, "", "bench-write-path")
    if args.server_side_binding:
        from django.db import connection

        connection.close()
        connection.close_pool()  # (its connections were made with the options before)
        connection.settings_dict.setdefault("OPTIONS", {})["server_side_binding"] = True
    numbers = measure(args.tables, args.actions)
    for name, value in numbers.items():
        print(f"{name:>26}: {value:.3f}" if isinstance(value, float) else f"{name:>26}: {value}")
    if args.json:
        Path(args.json).write_text(json.dumps(numbers, indent=2))
    return 0


def measure(tables: int, actions: int) -> dict:
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.utils import timezone

    from games import engine
    from games.engine import Refusal
    from games.models import Seat, Table
    from games.runtime import clock, table_state, thinking, writer
    from games.runtime.commands import Issuer
    from games.runtime.tables import table_create
    from games.web import rendering

    settings.GAMES_BOT_DELAY_MS = settings.GAMES_NEXT_HAND_DELAY_MS = settings.GAMES_DEAL_LEAD_IN_MS = 0
    Table.objects.filter(name__startswith="bench-write-").delete()
    owner, _ = get_user_model().objects.get_or_create(username="bench-write")
    reader, _ = get_user_model().objects.get_or_create(username="bench-write-reader")  # a spectator
    ids = []
    for i in range(tables):
        table = table_create(owner=owner, name=f"bench-write-{i}", deal_pace_ms=1, last_chance_ms=1)
        Seat.objects.filter(table=table).update(bot=Seat.Bot.BASIC)
        writer.table_act(table_id=table.pk, action={"type": "start_match"}, expected_version=None, issuer=Issuer.SYSTEM)
        ids.append(table.pk)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
    spent = {"decide": 0.0, "write": 0.0, "render": 0.0}
    counted = warm_up = refused = 0
    looked: dict[int, tuple] = {}  # table → (version, cards dealt) at which its bots declined to declare
    held: dict[int, table_state.LoadedTable] = {}  # table → as its actor would hold it
    database0 = cpu_seconds(backend)
    while counted < actions:
        for table_id in ids:
            now = timezone.now()
            loaded = held.get(table_id) or table_state.read(table_id)
            seen = looked.get(table_id)
            step = clock.due_step(
                loaded.table,
                loaded.game,
                loaded.seats,
                now,
                looked=seen[1] if seen and seen[0] == loaded.version else None,
            )
            if step is None or step.action is None or step.due > now:
                continue
            action = step.action
            started = time.process_time()
            if action["type"] == "bot_move" or action["type"] == "bot_declare":
                move = thinking.answer(thinking.question(loaded=loaded, step_action=action, now=now))
                if move is None:  # no bot declares: they look again at the next look, as the runner does
                    looked[table_id] = (loaded.version, step.look)
                    continue
                action = {**action, "move": move}
            decided = time.process_time()
            try:
                outcome = writer.table_act(
                    table_id=table_id,
                    action=action,
                    expected_version=loaded.version,
                    issuer=step.issuer,
                    notify=False,
                    held=loaded,
                )
            except Refusal:  # as the runner, which tries again: not counted
                refused += 1
                continue
            written = time.process_time()
            after = held[table_id] = outcome.table
            game = clock.live(after.table, after.game, timezone.now()) if after.game else None
            view = engine.view(game, None) if game else None
            context = rendering.table_context(
                table=after.table, seats=after.seats, view=view, viewer_seat=None, user=reader
            )
            regions = {name: json.dumps(html) for name, html in rendering.render_regions(context).items()}
            assert regions
            rendered = time.process_time()
            if warm_up < 200:  # the first actions fill caches (templates, card faces)
                warm_up += 1
                database0 = cpu_seconds(backend)
                continue
            spent["decide"] += decided - started
            spent["write"] += written - decided
            spent["render"] += rendered - written
            counted += 1
    database = cpu_seconds(backend) - database0
    per = {f"{name}_ms_per_action": 1000 * seconds / counted for name, seconds in spent.items()}
    return {
        "actions": counted,
        "refused": refused,
        "tables": tables,
        **per,
        "postgres_ms_per_action": 1000 * database / counted,
        "server_side_binding": bool(connection.settings_dict.get("OPTIONS", {}).get("server_side_binding")),
    }


if __name__ == "__main__":
    sys.exit(main())
