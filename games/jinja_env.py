"""The Jinja2 environment of the table's live regions (games/jinja2/, settings.TEMPLATES).

The regions are rendered for every reader after every action, so they are Jinja2 templates,
compiled to Python once per process. Their words go through Jinja2's i18n extension to
Django's own translations: `render` hands each render the active language's catalogue
(`trans_real.translation`, of which Django keeps one per language), so that a message is
one lookup in it, not a search for the active language on every call. Escaping is
MarkupSafe's, which keeps Django's safe strings as they are.
"""

from django.template import engines
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import get_language, gettext, ngettext, trans_real
from jinja2 import Environment, pass_context
from jinja2.runtime import Context, Macro
from markupsafe import Markup

from games.glossary import TERMS
from games.templatetags.cards import card_row


@pass_context
def _cards(context: Context, faces: list[dict]) -> Markup:
    """A row of card faces (games.templatetags.cards) in the render's language."""
    return Markup(card_row(faces, context["language"]))


@pass_context
def _django_partial(context: Context, name: str, **values) -> Markup:
    """Django template `name` (templates/) filled from this render's context and `values`."""
    return Markup(render_to_string(name, {**context.get_all(), **values}))


def environment(**options) -> Environment:
    # A block tag takes its line's indent and newline with it: the markup pushed stays lean.
    env = Environment(extensions=["jinja2.ext.i18n"], trim_blocks=True, lstrip_blocks=True, **options)
    # Django's gettext for a render that brings no catalogue of its own (`render` does).
    env.install_gettext_callables(gettext, ngettext, newstyle=False)  # type: ignore[attr-defined]
    env.globals.update(cards=_cards, django_partial=_django_partial, rules_url=reverse("rules"), terms=TERMS)
    env.globals["term"] = env.get_template("games/partials/term.html").module.term  # type: ignore[attr-defined]
    return env


def _env() -> Environment:
    return engines["jinja2"].env  # type: ignore[attr-defined]


def render(name: str, context: dict) -> Markup:
    """Template `name` of games/jinja2/ filled from `context`, in the active language."""
    return render_each([name], context)[0]


def render_each(names: list[str], context: dict) -> list[Markup]:
    """Templates `names` of games/jinja2/, each filled from `context` in the active language."""
    env, language = _env(), get_language()
    catalog = trans_real.translation(language)
    words = {"_": catalog.gettext, "gettext": catalog.gettext, "ngettext": catalog.ngettext}
    # The render's variables in one plain dict, shared as they are: `Template.render` would
    # copy them into a new one through the template's chain of globals, key by key.
    variables = {**env.globals, **context, "language": language, **words}
    made = []
    for name in names:
        template = env.get_template(name)
        made.append(Markup(env.concat(template.root_render_func(template.new_context(variables, shared=True)))))
    return made


def macro(template: str, name: str) -> Macro:
    """Macro `name` of template `template` of games/jinja2/, to call from Python."""
    return getattr(_env().get_template(template).module, name)
