"""The Jinja2 environment of the table's live regions (games/jinja2/, settings.TEMPLATES).

The regions are rendered for every reader after every action, so they are Jinja2 templates,
compiled to Python once per process and language. Their words are Django's own
translations, through Jinja2's i18n extension: a plain `_("…")` is translated when the
template is compiled for a language (`LiteralWords`), so Jinja2 writes it, escaped, into the
compiled template as it does with any constant; a sentence with values in it (`{% trans %}`)
is looked up when rendered, in the catalogue of the render's language (`trans_real.translation`,
of which Django keeps one per language). Escaping is MarkupSafe's, which keeps Django's safe
strings as they are.
"""

from django.conf import settings
from django.template import engines
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import get_language, gettext, ngettext, trans_real
from jinja2 import Environment, pass_context
from jinja2.ext import Extension
from jinja2.lexer import Token, TokenStream
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


class LiteralWords(Extension):
    """Words fixed when a template is compiled for the environment's `words_language`:
    `_("a literal")` becomes the literal's translation, and `term("key", "shown", "place")`
    with three literals becomes the glossary word's finished markup (games/partials/term.html),
    a constant of the compiled template instead of a macro call on every render."""

    def __init__(self, environment: Environment) -> None:
        super().__init__(environment)
        environment.extend(words_language=None)

    def filter_stream(self, stream: TokenStream):  # type: ignore[override]
        language = self.environment.words_language  # type: ignore[attr-defined]
        tokens = self._translated(list(stream), trans_real.translation(language))
        at = 0
        while at < len(tokens):
            here = tokens[at : at + 8]
            if [t.type for t in here] == TERM_CALL and here[0].value == "term":
                key, shown, place = (here[i].value for i in (2, 4, 6))
                with translation.override(language):
                    markup = self.environment.get_template(TERM_TEMPLATE).module.term(key, shown, place)  # type: ignore[attr-defined]
                lineno = here[0].lineno
                yield from (
                    Token(lineno, "string", str(markup)),
                    Token(lineno, "pipe", "|"),
                    Token(lineno, "name", "safe"),
                )
                at += 8
            else:
                yield tokens[at]
                at += 1

    @staticmethod
    def _translated(tokens: list[Token], catalog) -> list[Token]:
        made, at = [], 0
        while at < len(tokens):
            here = tokens[at : at + 4]
            if [t.type for t in here] == ["name", "lparen", "string", "rparen"] and here[0].value == "_":
                made.append(Token(here[0].lineno, "string", catalog.gettext(here[2].value)))
                at += 4
            else:
                made.append(tokens[at])
                at += 1
        return made


TERM_TEMPLATE = "games/partials/term.html"
TERM_CALL = ["name", "lparen", "string", "comma", "string", "comma", "string", "rparen"]


def environment(**options) -> Environment:
    # A block tag takes its line's indent and newline with it: the markup pushed stays lean.
    env = Environment(extensions=["jinja2.ext.i18n"], trim_blocks=True, lstrip_blocks=True, **options)
    # Django's gettext for a render that brings no catalogue of its own (`render` does).
    env.install_gettext_callables(gettext, ngettext, newstyle=False)  # type: ignore[attr-defined]
    env.globals.update(cards=_cards, django_partial=_django_partial, rules_url=reverse("rules"), terms=TERMS)
    env.globals["term"] = env.get_template(TERM_TEMPLATE).module.term  # type: ignore[attr-defined]
    # One compiled copy of each template per language, each with a cache of its own.
    env.by_language = {}  # type: ignore[attr-defined]
    for code, _name in settings.LANGUAGES:
        compiled = env.overlay(extensions=[LiteralWords], cache_size=400)
        compiled.words_language = code  # type: ignore[attr-defined]
        env.by_language[code] = compiled  # type: ignore[attr-defined]
    return env


def _env() -> Environment:
    return engines["jinja2"].env  # type: ignore[attr-defined]


def render(name: str, context: dict) -> Markup:
    """Template `name` of games/jinja2/ filled from `context`, in the active language."""
    return render_each([name], context)[0]


def render_each(names: list[str], context: dict) -> list[Markup]:
    """Templates `names` of games/jinja2/, each filled from `context` in the active language."""
    base, language = _env(), get_language()
    env = base.by_language.get(language, base)  # type: ignore[attr-defined]
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
