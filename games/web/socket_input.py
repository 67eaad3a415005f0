"""What every player socket does with incoming text before acting on it.

A per-socket flood budget (beyond it the socket is closed with 1008), a size limit, and
JSON parsing with a clear error to that socket alone. Shared by the table and chat
sockets, which differ only in their limits.
"""
import json
import time

from django.utils.translation import gettext as _


class JsonInput:
    max_message_bytes = 4096
    budget_messages = 80  # per socket and window
    budget_window_s = 5.0

    async def read_message(self, text_data, bytes_data) -> dict | None:
        """The message as a dict with an "action", or None once the socket was answered."""
        if self._over_budget():
            await self.close(code=1008)
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

    async def send_error(self, code, message):
        await self.send(text_data=json.dumps({"type": "error", "code": code, "message": message}))
