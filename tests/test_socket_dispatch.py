"""games/web/socket_dispatch.py: a push to a client that has just hung up is dropped, not a
crash of the socket (daphne raises autobahn's Disconnected from send before the consumer has
read the disconnect; the soak counted those tracebacks as errors)."""

import pytest
from autobahn.exception import Disconnected

from games.web.socket_dispatch import DirectDispatch


class _Transport:
    """Stands for daphne's send, raising what it raises once the client is gone."""

    def __init__(self, error):
        self.error = error

    async def send(self, *args, **kwargs):
        raise self.error


class _Socket(DirectDispatch, _Transport):
    pass


async def test_a_push_to_a_client_that_just_hung_up_is_dropped():
    await _Socket(Disconnected("Attempt to send on a closed protocol")).send(text_data="{}")


async def test_any_other_failure_of_a_send_still_surfaces():
    with pytest.raises(ValueError):
        await _Socket(ValueError("a bug")).send(text_data="{}")
