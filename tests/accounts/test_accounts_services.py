"""accounts.services and accounts.selectors."""

import pytest
from django.contrib.auth import get_user_model

from accounts.models import Profile
from accounts.selectors import profile_language, user_public_get
from accounts.services import (
    DEMO_PASSWORD,
    demo_users_ensure,
    profile_set_language,
    profile_update,
    user_register,
)

User = get_user_model()


def test_user_register_creates_user_and_profile(db):
    user = user_register(username="lin", password="felt-table-7", email="Lin@EXAMPLE.com", language="zh-hans")
    assert user.check_password("felt-table-7")
    assert user.email == "Lin@example.com"  # domain normalised
    assert user.profile.language == "zh-hans"


def test_user_register_rejects_unsupported_language_and_rolls_back(db):
    with pytest.raises(ValueError):
        user_register(username="lin", password="felt-table-7", language="fr")
    assert not User.objects.filter(username="lin").exists()


def test_profile_set_language_normalises_and_validates(db):
    user = User.objects.create_user(username="made-in-admin")
    assert profile_set_language(user=user, language="zh-Hans") == "zh-hans"
    assert profile_language(user=user) == "zh-hans"
    with pytest.raises(ValueError):
        profile_set_language(user=user, language="klingon")
    assert profile_set_language(user=user, language="") == ""
    assert Profile.objects.get(user=user).language == ""


def test_profile_language_without_profile_is_browser_default(db):
    user = User.objects.create_user(username="no-profile")
    assert profile_language(user=user) == ""


def test_profile_update(db):
    user = user_register(username="lin", password="felt-table-7")
    assert profile_update(user=user, language="en", email="lin@example.com") == "en"
    user.refresh_from_db()
    assert (user.email, user.profile.language) == ("lin@example.com", "en")


def test_user_public_get_hides_inactive_users(db):
    user = user_register(username="lin", password="felt-table-7")
    assert user_public_get(username="lin") == user
    assert user_public_get(username="nobody") is None
    User.objects.filter(pk=user.pk).update(is_active=False)
    assert user_public_get(username="lin") is None


def test_demo_users_ensure_is_idempotent_and_keeps_changed_passwords(db):
    assert demo_users_ensure() == ["alice", "bob", "carol", "dave"]
    alice = User.objects.get(username="alice")
    assert alice.check_password(DEMO_PASSWORD)
    assert Profile.objects.filter(user__username__in=["alice", "bob", "carol", "dave"]).count() == 4
    alice.set_password("alice-own-secret-1")
    alice.save()
    assert demo_users_ensure() == []
    assert User.objects.filter(username__in=["alice", "bob", "carol", "dave"]).count() == 4
    alice.refresh_from_db()
    assert alice.check_password("alice-own-secret-1")
