"""Pages around the table: the create-table form, the admin's model names, the menu."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games.models import Table
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


def test_the_admin_index_says_matches():
    admin = get_user_model().objects.create_superuser("root", password="a-long-test-pass-1")
    from django.test import Client

    client = Client()
    client.force_login(admin)
    html = client.get(reverse("admin:index")).text
    assert ">Matches<" in html and "Matchs" not in html


def test_the_create_form_has_defaults_help_and_clear_errors(client):
    client.force_login(make_user("mei"))
    html = client.get(reverse("lobby")).text
    assert 'name="deal_pace_ms" value="150"' in html and 'min="50"' in html and 'max="2000"' in html
    assert 'name="last_chance_ms" value="2000"' in html and 'aria-describedby="id_deal_pace_ms_helptext"' in html
    assert 'id="id_allow_bots_helptext"' in html and "checked" in html  # bots allowed by default
    bad = client.post(
        reverse("create_table"), {"name": "", "deal_pace_ms": 5000, "last_chance_ms": -1, "turn_limit_s": 0}
    )
    assert bad.status_code == 400 and not Table.objects.exists()
    assert bad.text.count('class="errorlist') >= 3 and "field--error" in bad.text


def test_the_menu_lists_the_pages_of_a_logged_in_player(client):
    client.force_login(make_user("mei"))
    html = client.get(reverse("my_matches")).text
    for name in ("lobby", "my_matches", "account_settings"):
        assert f'href="{reverse(name)}"' in html
    assert f'href="{reverse("my_matches")}" aria-current="page"' in html
    assert 'aria-controls="site-menu"' in html and 'id="site-menu"' in html


def test_a_public_table_gets_a_turn_limit_and_only_a_private_one_may_have_none(client):
    client.force_login(make_user("mei"))
    assert '<option value="30" selected>' in client.get(reverse("lobby")).text  # the default
    form = {"name": "t", "deal_pace_ms": 150, "last_chance_ms": 2000, "allow_bots": "on"}
    refused = client.post(reverse("create_table"), {**form, "turn_limit_s": 0})
    assert refused.status_code == 400 and not Table.objects.exists()
    assert "A public table needs a turn limit" in refused.text
    client.post(reverse("create_table"), {**form, "turn_limit_s": 0, "is_private": "on"})
    client.post(reverse("create_table"), {**form, "turn_limit_s": 15})
    assert sorted(Table.objects.values_list("is_private", "turn_limit_s")) == [(False, 15), (True, 0)]
