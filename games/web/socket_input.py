"""What every player socket does with incoming text before acting on it.

A per-socket flood budget (beyond it the socket is told why and closed with FLOODED), a
size limit, and JSON parsing with a clear error to that socket alone. Shared by the table and chat
sockets, which differ only in their limits.
"""

import json
import time
from typing import TYPE_CHECKING

from django.utils import translation
from django.utils.translation import gettext as _

from games import rulebook
from games.templatetags.rule_links import rule_link_words

# Why not 1008 (policy violation): daphne refuses to send any application close code but
# 1000 and 3000-4999, and turns it into 1011, which clients take for a server fault and
# reconnect on. Pages treat every 4xxx close as final (docs/protocol.md).
FLOODED = 4008


class JsonInput:
    max_message_bytes = 4096
    budget_messages = 80  # per socket and window
    budget_window_s = 5.0

    if TYPE_CHECKING:  # what the consumer this is mixed into provides (channels ships no types)

        async def send(
            self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
        ) -> None: ...

        async def close(self, code: int | None = None, reason: str | None = None) -> None: ...

    async def read_message(self, text_data, bytes_data) -> dict | None:
        """The message as a dict with an "action", or None once the socket was answered."""
        if self._over_budget():
            if not getattr(self, "_flooded", False):  # told once; later messages are dropped
                self._flooded = True
                await self.send_error("flooded", _("Too many messages at once: this connection was closed."))
                await self.close(code=FLOODED)
            return None
        raw = text_data if text_data is not None else (bytes_data or b"").decode("utf-8", "replace")
        if len(raw.encode()) > self.max_message_bytes:
            return await self.send_error("too_large", _("That message is too large."))
        try:
            message = json.loads(raw)
        except ValueError:
            return await self.send_error("bad_json", _("That message is not valid JSON."))
        if not isinstance(message, dict) or not isinstance(message.get("action"), str):
            return await self.send_error("bad_message", _("A message needs an action."))
        return message

    def _over_budget(self) -> bool:
        now = time.monotonic()
        times = [t for t in getattr(self, "_received_at", ()) if now - t < self.budget_window_s]
        times.append(now)
        self._received_at = times
        return len(times) > self.budget_messages

    async def send_error(self, code, message, rule=None):
        """A refusal: its code, the sentence in the reader's language, and (for the rules'
        own refusals) the RULES section it applies, kept out of the sentence, with the link
        the page shows beside it (rule_reference)."""
        error = {"type": "error", "code": code, "message": message}
        if rule:
            error.update(rule_reference(rule, getattr(self, "language", None)))
        await self.send(text_data=json.dumps(error))


def rule_reference(rule: str, language: str | None) -> dict[str, str]:
    """A refusal's rule for the page: the RULES section ("5.4"), the rules page's section that
    explains it and the link's words in the reader's language (never a bare "§5.4")."""
    with translation.override(language):
        return {"rule": rule, "rule_url": rulebook.rule_url(rule), "rule_text": rule_link_words(rule)}
