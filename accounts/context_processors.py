"""The signed-in player's display preferences, for every page (the four-colour deck
colours the cards of the table, replays and history alike), and whether they are a guest
(accounts/guests.py: the header then offers to keep their games by registering)."""

from accounts.models import Profile


def preferences(request) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"preferences": None, "is_guest": False}
    profile = Profile.objects.filter(user=user).only("sound", "four_colour", "play_forced", "is_guest").first()
    return {"preferences": profile, "is_guest": bool(profile and profile.is_guest)}
