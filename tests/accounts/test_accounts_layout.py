"""templates/base.html: the layout every page extends."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template import engines
from django.test import RequestFactory
from django.urls import reverse

from accounts.services import user_register


def render(source, user=None):
    request = RequestFactory().get("/somewhere/?page=2")
    request.user = user or AnonymousUser()
    return engines["django"].from_string(source).render({}, request)


def test_layout_blocks_and_head():
    html = render(
        '{% extends "base.html" %}'
        "{% block title %}Table 7{% endblock %}"
        '{% block head %}<meta name="x-extra-head">{% endblock %}'
        '{% block body_attrs %} hx-ext="ws" data-table="7"{% endblock %}'
        "{% block content %}<p>the content</p>{% endblock %}"
        '{% block scripts %}<script src="/static/js/table.js"></script>{% endblock %}'
    )
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert "<title>Table 7</title>" in html
    assert '<meta name="x-extra-head">' in html
    assert '<body hx-ext="ws" data-table="7">' in html
    assert "<p>the content</p>" in html
    assert html.index("<p>the content</p>") < html.index('<script src="/static/js/table.js">')
    assert '<link rel="stylesheet" href="/static/css/site.css">' in html
    assert "Double Up online" in html and "双升" in html


def test_default_title_and_plain_body():
    html = render('{% extends "base.html" %}')
    assert "<title>Double Up online / 双升</title>" in html
    assert "<body>" in html


def test_anonymous_nav():
    html = render('{% extends "base.html" %}')
    assert f'href="{reverse("lobby")}"' in html
    assert f'href="{reverse("login")}"' in html
    assert f'href="{reverse("register")}"' in html
    assert f'href="{reverse("learn")}"' in html and f'href="{reverse("rules")}"' in html  # the way in
    assert reverse("logout") not in html


@pytest.mark.django_db
def test_logged_in_nav_has_profile_and_post_logout():
    user = user_register(username="mei", password="felt-table-7-kitty")
    html = render('{% extends "base.html" %}', user=user)
    assert f'href="{reverse("profile", args=["mei"])}"' in html
    assert f'<form class="inline-form" method="post" action="{reverse("logout")}">' in html
    assert f'href="{reverse("login")}"' not in html


def test_language_switch_posts_to_set_language_and_returns_here():
    html = render('{% extends "base.html" %}')
    assert '<form class="lang-switch" method="post" action="/i18n/setlang/" role="group"' in html
    assert 'aria-labelledby="lang-switch-label"' in html and 'id="lang-switch-label"' in html  # a named group
    assert 'name="csrfmiddlewaretoken"' in html
    assert '<input type="hidden" name="next" value="/somewhere/?page=2">' in html
    assert 'name="language" value="en"' in html
    assert 'name="language" value="zh-hans"' in html
    assert "简体中文" in html  # each language named in itself


def test_messages_are_shown(client, db, settings):
    # Registering sets a success message, shown on the next page rendered with base.html.
    client.post(
        reverse("register"),
        {"username": "lin", "password1": "felt-table-7-kitty", "password2": "felt-table-7-kitty"},
    )
    page = client.get(reverse("profile", args=["lin"]))
    assert '<p class="message message--success">Welcome, lin! Your account is ready.</p>' in page.text
