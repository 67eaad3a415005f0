"""The signed-in player's display preferences, for every page (the four-colour deck
colours the cards of the table, replays and history alike)."""

from accounts.models import Profile


def preferences(request) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"preferences": None}
    profile = Profile.objects.filter(user=user).only("sound", "four_colour", "play_forced").first()
    return {"preferences": profile}
