"""`{% table_chat table as chat %}`: what the chat partial needs, so any page showing a
table can include games/partials/chat.html without its view knowing about chat."""

from urllib.parse import urlencode

from django import template

from games.chat import chat_recent, guest_may_chat
from games.models import ChatMessage

register = template.Library()


@register.simple_tag(takes_context=True)
def table_chat(context, table) -> dict:
    request = context.get("request")
    invite = request.GET.get("invite") if request is not None else None
    ws_path = f"/ws/table/{table.pk}/chat/" + (f"?{urlencode({'invite': invite})}" if invite else "")
    user = context.get("user")
    may_post = user is not None and user.is_authenticated and guest_may_chat(user, table=table)
    return {
        "messages": chat_recent(table=table),
        "ws_path": ws_path,
        "max_length": ChatMessage.MAX_LENGTH,
        "may_post": may_post,
    }
