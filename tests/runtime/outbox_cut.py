"""One action through the write path in a process of its own, held between its commit and the
delivery of its domain events, where tests/runtime/test_outbox.py kills it (SIGKILL).

    python -m tests.runtime.outbox_cut <table id> <version> <user id> '<action JSON>'
"""

import json
import sys
import time

import django

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402

from games.runtime import outbox, writer  # noqa: E402


def held(event_ids) -> None:
    print("committed", json.dumps(list(event_ids)), flush=True)
    time.sleep(600)  # killed here


outbox.deliver = held
table_id, version, user_id, action = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), json.loads(sys.argv[4])
user = get_user_model().objects.get(pk=user_id)
outcome = writer.table_act(table_id=table_id, action=action, expected_version=version, user=user)
print(f"nothing published: {outcome}", flush=True)  # the test fails on it
