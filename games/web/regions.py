"""The table's `players`, `center` and `status` regions in Python: the same markup their templates
made, at a fraction of the cost.

It is rendered after every accepted action for every seat and every language its readers
use, on the first page load as on every push (games/web/rendering.render_regions, the one
entry point): as a Django template its ~25 tags per seat cost ≈ 0.5 ms a render, the
largest share of an action's CPU after the other regions (docs/performance.md). Every
string goes through `format_html` (escaped) and gettext (the same msgids the template
had, so the translations stand).
"""

from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import partial
from html import escape

from django.template.loader import render_to_string
from django.utils.functional import Promise
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext, ngettext

from games.templatetags.cards import card_row
from games.templatetags.glossary import term_html

# The language of the render in progress (`one_language`), so that `_` need not look it up.
_language: ContextVar[str | None] = ContextVar("regions_language", default=None)
_translated: dict[tuple[str, str], str] = {}  # (language, msgid) → its translation: literal msgids only
# (language, id of a lazy translation) → (that lazy object, its text): the object is kept, so
# its id is never reused while remembered. Lazy objects are module constants (seat names,
# phases, bot labels), so this stays small.
_lazy_texts: dict[tuple[str, int], tuple[Promise, str]] = {}
# Text arguments of `format_html` → escaped: names, class names and translations, the same few
# hundred strings in every render (`html.escape` was a tenth of a render's CPU).
_escapes: dict[str, str] = {}
_ESCAPES_MAX = 5_000  # ≈ 110 bytes each
# See `_remembered`: least recently used dropped first. A piece is ≈ 3 KB with its key; the
# ones worth keeping are each table's latest few (≈ 10–15 a table), so 3,000 serve a few
# hundred tables in ≈ 9 MB. (20,000 emptied when full grew every process by ≈ 60 MB before
# it levelled off: the soak's memory, docs/performance.md.)
_fragments: OrderedDict[tuple, SafeString] = OrderedDict()
_FRAGMENTS_MAX = 3_000


@contextmanager
def one_language() -> Iterator[None]:
    """Render the regions in the active language, each message looked up once per process:
    Django's gettext finds the active language (a thread- and task-local) and searches its
    catalogues on every call, ≈ 55 calls a render, more than the rest of the render cost."""
    token = _language.set(get_language())
    try:
        yield
    finally:
        _language.reset(token)


def _(message: str) -> str:
    """gettext (the name makemessages looks for), remembered per language inside `one_language`."""
    language = _language.get()
    if language is None:
        return gettext(message)
    try:
        return _translated[language, message]
    except KeyError:
        translated = _translated[language, message] = gettext(message)
        return translated


# The phases whose names are game words (the status line's phase, the felt's title).
PHASE_TERMS = {"deal": "declare", "last_chance": "last-chance", "bury": "bury"}


def term(key: str, shown: str, place: str) -> SafeString:
    """A game word that explains itself on hover, focus or tap (games/glossary.py), shown as
    `shown`. Made once per language, word and place; its tooltip's id names the place, so an
    unchanged region renders the same markup and is not pushed again."""
    return _remembered(("term", key, shown, place), lambda: term_html(key, shown, place=place))


def cards(faces: list[dict]) -> SafeString:
    """A row of card faces (the `{% cards %}` tag) in the render's language."""
    return card_row(faces, _language.get() or get_language())


def text(value) -> str:
    """`value` as text in the render's language: a lazy translation is resolved once per
    language and process inside `one_language` (Django resolves it on every use, looking up
    the active language and searching the catalogues)."""
    if not isinstance(value, Promise):
        return str(value)
    language = _language.get()
    if language is None:
        return str(value)
    held = _lazy_texts.get((language, id(value)))
    if held is None or held[0] is not value:
        held = _lazy_texts[language, id(value)] = (value, str(value))
    return held[1]


def _remembered(key: tuple, make: Callable[[], SafeString]) -> SafeString:
    """`make()`, made once per language and `key` inside `one_language`: the pieces of a region
    that stay the same over many renders (a seat's name plate all match long, the teams all
    hand long, the point cards until a trick brings points). `key` names the piece first, then
    everything its markup depends on besides the language."""
    language = _language.get()
    if language is None:
        return make()
    full = (language, *key)
    made = _fragments.get(full)
    if made is None:
        if len(_fragments) >= _FRAGMENTS_MAX:
            _fragments.popitem(last=False)
        made = _fragments[full] = make()
    else:
        _fragments.move_to_end(full)
    return made


def format_html(template: str, *args) -> SafeString:
    """Django's `format_html`, for the hot path: each argument escaped as `conditional_escape`
    would (markup kept, lazy text resolved, the rest `html.escape`d, quotes too) and the result
    marked safe, without the lazy-argument checks of `escape` and `mark_safe` on every call
    (≈ 40 calls a render; they were a tenth of an action's CPU, docs/performance.md). For the
    same reason the markup made here is marked safe with `SafeString` itself."""
    return SafeString(template.format(*map(_escaped, args)))


def _escaped(value) -> str:
    kind = type(value)
    if kind is SafeString:  # the commonest arguments first: markup made here, text, numbers
        return value
    if kind is str:
        escaped = _escapes.get(value)
        if escaped is None:
            if len(_escapes) >= _ESCAPES_MAX:
                _escapes.clear()
            escaped = _escapes[value] = escape(value)
        return escaped
    if kind is int:
        return str(value)
    if isinstance(value, Promise):
        return escape(text(value))
    markup = getattr(value, "__html__", None)
    return markup() if markup is not None else escape(str(value))


def clock(deadline_ms, label: str, big: bool) -> SafeString:
    """A running countdown to `deadline_ms` (epoch ms); static/js/table.js counts it down
    with the server's clock (as templates/games/partials/clock.html)."""
    return format_html(
        '<span class="clock{}" data-testid="clock" data-deadline="{}" role="timer" aria-label="{}">'
        '<span class="clock-s" aria-hidden="true"></span></span>',
        " clock-big" if big else "",
        deadline_ms,
        label,
    )


def spectator_hand(context: dict) -> SafeString:
    """The `hand` region of a reader without a seat (a seat's own is templates/games/partials/hand.html)."""
    return (
        format_html('<p class="spectating">{}</p>', _("You are watching this table."))
        if context["view"]
        else SafeString()
    )


def players(context: dict) -> SafeString:
    """The four seats around the table, the reader at the bottom, and the owner's start button."""
    view, waiting = context["view"], context["table"].status == "waiting"
    if waiting:  # the owner's controls: made afresh
        parts = [_seat(p, context, view, waiting) for p in context["players"]]
    else:  # a play changes two seats at most (a hand's count, the turn): the others are remembered
        parts = [
            _remembered(_seat_key(p, context, view), partial(_seat, p, context, view, False))
            for p in context["players"]
        ]
    if waiting and context["is_owner"]:
        parts.append(
            format_html(
                '<div class="start-area"><button type="button" class="btn primary big" data-action="start_match"{}>{}</button>{}</div>',
                "" if context["can_start"] else SafeString(" disabled"),
                _("Start the match"),
                ""
                if context["can_start"]
                else format_html("<small>{}</small>", _("All four seats must be filled (people or bots).")),
            )
        )
    return SafeString("\n".join(parts))


def _seat_key(p: dict, context: dict, view) -> tuple:
    """Everything a seat's markup depends on while the table is not waiting (`_seat`, `_meta`)."""
    turn = p.get("is_turn")
    clock = (context["clock_kind"], context["deadline_ms"]) if turn and context["clock_kind"] == "turn" else None
    return (
        "seat",
        *(p.get(name) for name in _SEAT_FIELDS),
        view["phase"] if view and turn else None,
        clock,
        view is None,
    )


_SEAT_FIELDS = (
    *("place", "position", "name", "team", "is_turn", "is_me", "is_dealer", "is_free", "is_bot"),
    *("bot_label", "bot_level", "autoplay", "count"),
)


def _seat(p: dict, context: dict, view, waiting: bool) -> SafeString:
    name = p["name"]
    shown = name or _("(empty seat)")
    classes = f"seat seat-{p['place']} team-{p['team']}"
    classes += " is-turn" * bool(p.get("is_turn")) + " is-me" * bool(p["is_me"])
    classes += " is-dealer" * bool(p.get("is_dealer")) + " is-free" * bool(p["is_free"])
    # A bot's seat reads as its compass point, its level on a line of its own (never cut off).
    shown_name = text(p["compass"]) if p["is_bot"] else shown
    plate = (name, shown_name, p["bot_label"] if p["is_bot"] else "", p["is_me"], p["team"])
    head = _remembered(("seat-head", *plate), lambda: _seat_head(*plate))
    meta = _meta(p, context, view) if view else ""
    actions = _actions(p, context) if waiting else ""
    return format_html(
        '<section{} class="{}" data-seat="{}" data-testid="seat" aria-label="{}">{}{}{}</section>',
        format_html(' data-bot-level="{}"', p["bot_level"]) if p.get("bot_level") else "",
        classes,
        p["position"],
        shown,
        head,
        meta,
        actions,
    )


def _seat_head(name: str, shown: str, bot_label: str, is_me: bool, team: int) -> SafeString:
    """A seat's name plate: avatar, name (or a bot's compass point), "(you)", a bot's level, the team."""
    avatar = "⚙" if bot_label else (name[0].upper() if name else "·")
    you = format_html(' <span class="you">{}</span>', _("(you)")) if is_me else ""
    level = format_html('<span class="seat-level" data-testid="seat-level">{}</span>', bot_label) if bot_label else ""
    return format_html(
        '<div class="seat-head"><span class="avatar" aria-hidden="true">{}</span><div class="seat-id">'
        '<strong class="seat-name" title="{}">{}{}</strong>{}<span class="seat-team">{}</span></div></div>',
        avatar,
        name,
        shown,
        you,
        level,
        _("North–South") if team == 0 else _("East–West"),
    )


def _meta(p: dict, context: dict, view) -> str:
    parts = []
    if p.get("is_dealer"):
        parts.append(format_html('<span class="badge dealer">{}</span>', term("dealer", _("Dealer"), "seat")))
    if p["autoplay"]:
        parts.append(
            format_html(
                '<span class="badge auto" title="{}">{}</span>',
                _("Out of time: a bot plays for this seat until its player is back."),
                _("bot playing"),
            )
        )
    parts.append(
        format_html(
            '<span class="count"><span class="back" aria-hidden="true"></span><span class="visually-hidden">{}:</span> '
            '<span class="count-n">{}</span></span>',
            _("cards in hand"),
            p.get("count"),
        )
    )
    if p.get("is_turn"):
        flag = term("bury", _("burying"), "seat") if view["phase"] == "bury" else _("to play")
        parts.append(format_html('<span class="turn-flag">{}</span>', flag))
        if context["clock_kind"] == "turn":
            parts.append(clock(context["deadline_ms"], _("time left to play"), False))
    return format_html('<div class="seat-meta">{}</div>', SafeString(" ".join(parts)))


def _actions(p: dict, context: dict) -> str:
    table, buttons = context["table"], []
    if p["is_free"]:
        sit = _("Sit here") if context["viewer_seat"] is None else _("Move here")
        buttons.append(_button("btn sit", "sit", p["position"], sit))
        if context["is_owner"] and table.allow_bots:
            position = p["position"]
            buttons.append(
                format_html(
                    '<span class="bot-add">{}<button type="button" class="btn ghost" data-action="add_bot" '
                    'data-seat="{}" data-level-from="bot-level-{}">{}</button></span>',
                    _level_list(context, position, context["bot_level_default"]),
                    position,
                    position,
                    _("Add bot"),
                )
            )
    elif p["is_bot"] and context["is_owner"]:
        changes = format_html(' data-action="bot_level" data-seat="{}"', p["position"])
        buttons.append(_level_list(context, p["position"], p["bot_level"], changes))
        buttons.append(_button("btn ghost", "remove_bot", p["position"], _("Remove bot")))
    elif p["is_me"]:
        buttons.append(
            format_html('<button type="button" class="btn ghost" data-action="stand">{}</button>', _("Leave seat"))
        )
    return format_html('<div class="seat-actions">{}</div>', SafeString("".join(buttons)))


def _level_list(context: dict, position: int, chosen: str, attributes: str = "") -> str:
    """The owner's choice of a bot's level (games/bot_levels.py) for the seat at `position`."""
    options = SafeString(
        "".join(
            format_html(
                '<option value="{}"{}>{}</option>', value, SafeString(" selected") if value == chosen else "", label
            )
            for value, label in context["bot_levels"]
        )
    )
    return format_html(
        '<label class="visually-hidden" for="bot-level-{}">{}</label>'
        '<select class="bot-level" id="bot-level-{}" data-testid="bot-level"{}>{}</select>',
        position,
        _("Bot level"),
        position,
        attributes,
        options,
    )


def _button(classes: str, action: str, seat: int, label: str, level: str | None = None) -> str:
    extra = format_html(' data-level="{}"', level) if level else ""
    return format_html(
        '<button type="button" class="{}" data-action="{}" data-seat="{}"{}>{}</button>',
        classes,
        action,
        seat,
        extra,
        label,
    )


def status(context: dict) -> SafeString:
    """The scoreboard: hand, phase, level, trump, points, teams, the dealer and the turn,
    the point cards won, the last trick, the reader's own buried cards."""
    table, view = context["table"], context["view"]
    if view:
        label = context["phase_label"]
        if view["phase"] in PHASE_TERMS:
            label = term(PHASE_TERMS[view["phase"]], text(label), "status-phase")
        phase = format_html('{} · <span class="phase">{}</span>', _("Hand %(n)s") % {"n": view["hand_no"]}, label)
    else:
        seated = context["seated"]
        phase = format_html(
            "{} · {}",
            table.get_status_display(),
            ngettext("%(n)s of 4 seated", "%(n)s of 4 seated", seated) % {"n": seated},
        )
    head = format_html(
        '<div class="sb-head"><span class="sb-table">{}</span><span class="sb-phase">{}</span></div>', table.name, phase
    )
    return format_html('<div class="scoreboard">{}{}</div>', head, _scoreboard(context, view) if view else "")


def _scoreboard(context: dict, view: dict) -> SafeString:
    parts = [_tiles(context, view)]
    if view["phase"] in ("deal", "last_chance"):
        parts.append(
            format_html(
                '<div class="deal-meter"><span class="tile-label">{}</span><span class="meter" aria-hidden="true">'
                '<span class="meter-bar" style="width: {}%"></span></span><span class="dealt" data-dealt="{}">{} / 100</span></div>',
                _("Dealt"),
                view["dealt"],
                view["dealt"],
                view["dealt"],
            )
        )
    parts.append(_teams(context, view))
    parts.append(_status_grid(context, view))
    sides = context["point_cards"]
    if sides:
        won = tuple(
            (s["team"], s["defenders"], s["points"], *((c["code"], c["trump"]) for c in s["cards"])) for s in sides
        )
        parts.append(_remembered(("point-cards", *won), lambda: _point_cards(sides)))
    last = context["last_trick"]
    if last and not context["trick_done"]:
        plays = tuple((play["name"], *((c["code"], c["trump"]) for c in play["cards"])) for play in last["plays"])
        parts.append(_remembered(("last-trick", last["winner"], last["points"], *plays), lambda: _last_trick(last)))
    if context["kitty"] and view["phase"] == "play":
        parts.append(
            format_html(
                '<div class="my-bury"><span class="tile-label">{}</span> <span class="cards-row small">{}</span></div>',
                term("bury", _("Your buried cards (only you see them)"), "my-bury"),
                cards(context["kitty"]),
            )
        )
    return SafeString("".join(parts))


def _last_trick(last: dict) -> SafeString:
    plays = SafeString(
        "".join(
            format_html(
                '<li><span class="who">{}</span> <span class="cards-row small">{}</span></li>',
                play["name"],
                cards(play["cards"]),
            )
            for play in last["plays"]
        )
    )
    took = ngettext(
        "%(winner)s took it (%(points)s point).", "%(winner)s took it (%(points)s points).", last["points"]
    ) % {"winner": conditional_escape(last["winner"]), "points": last["points"]}
    return format_html(
        '<details class="last-trick" data-keep="last-trick"><summary>{}</summary><ul>{}</ul><p>{}</p></details>',
        _("Last trick"),
        plays,
        SafeString(took),
    )


def _tiles(context: dict, view: dict) -> SafeString:
    trump, standing = view["trump"], context["standing"]
    if trump == "NT":
        shown = format_html('<span class="nt">{}</span>', _("no-trump"))
    elif trump:
        shown = format_html('<span class="{}">{}</span>', "red" if trump in ("H", "D") else "", context["trump_symbol"])
    elif standing:
        shown = format_html(
            '<span class="provisional{}" title="{}">{}?</span>',
            " red" if standing["red"] else "",
            _("declared, not fixed yet"),
            _("no-trump") if standing["no_trump"] else standing["symbol"],
        )
    else:
        shown = format_html('<span class="unknown" title="{}">?</span>', _("not fixed yet"))
    penalties = view.get("penalties") or 0
    note = (
        format_html('<span class="tile-note">{} {}{}</span>', _("penalties"), "+" if penalties > 0 else "", penalties)
        if penalties
        else ""
    )
    level = view["result"]["level"] if view.get("result") else view["level"]
    return format_html(
        '<div class="sb-tiles"><div class="tile"><span class="tile-label">{}</span><span class="tile-value level-rank">{}</span></div>'
        '<div class="tile"><span class="tile-label">{}</span><span class="tile-value trump-value">{}</span></div>'
        '<div class="tile"><span class="tile-label">{}</span><span class="tile-value points">{}</span>{}</div></div>',
        term("level", _("Level rank"), "tile"),
        level,
        term("trump", _("Trump"), "tile"),
        shown,
        term("point-cards", _("Defenders' points"), "tile"),
        view["defender_points"],
        note,
    )


def _teams(context: dict, view: dict) -> SafeString:
    teams = (view["dealer"], context["my_team"], (_level_of(view["levels"], 0), _level_of(view["levels"], 1)))
    return _remembered(("teams", *teams), lambda: _team_rows(*teams))


def _team_rows(dealer: int | None, my_team: int | None, levels: tuple) -> SafeString:
    rows = []
    for team in (0, 1):
        dealer_team = dealer is not None and (dealer % 2 == 0) == (team == 0)
        mine = my_team is not None and my_team == team
        name = _("North–South") if team == 0 else _("East–West")
        place = f"team-{team}"
        role = (
            ""
            if dealer is None
            else (term("dealer", _("dealer team"), place) if dealer_team else term("defenders", _("defenders"), place))
        )
        rows.append(
            format_html(
                '<li class="team-row team-{}{}{}"><span class="team-name">{}{}</span><span class="team-role">{}</span>'
                '<span class="team-level" title="{}">{}</span></li>',
                team,
                " dealer-team" if dealer_team else "",
                " mine" if mine else "",
                name,
                format_html(" <small>{}</small>", _("(your team)")) if mine else "",
                role,
                _("level"),
                levels[team],
            )
        )
    return format_html('<ul class="teams">{}</ul>', SafeString("".join(rows)))


def _level_of(levels, team: int):
    """`levels` as the engine's view has it: keyed by the team as a string (a JSON object)."""
    return levels[str(team)] if str(team) in levels else levels[team]


def _status_grid(context: dict, view: dict) -> SafeString:
    dealer = (
        context["dealer_name"]
        if view["dealer"] is not None
        else format_html('<span class="muted">{}</span>', _("first to declare"))
    )
    parts = [
        format_html(
            '<dt class="sg-dealer">{}</dt><dd class="sg-dealer">{}</dd>', term("dealer", _("Dealer"), "status"), dealer
        )
    ]
    if view["turn"] is not None:
        parts.append(
            format_html('<dt class="sg-turn">{}</dt><dd class="turn sg-turn">{}</dd>', _("Turn"), context["turn_name"])
        )
    if view["phase"] == "play":
        # The trick being played, or the one about to be led: never "Trick 0" before the
        # first lead. No "of N": a hand's number of tricks is only known at its end, since
        # a lead of several cards takes as many from every hand (RULES §5.2).
        number = view["tricks_played"] + 1
        parts.append(format_html('<dt>{}</dt><dd class="trick-no">{}</dd>', _("Trick"), number))
    if context["flipped"]:
        parts.append(
            format_html(
                '<dt>{}</dt><dd class="cards-row small">{}</dd>',
                term("kitty", _("Turned-up kitty card"), "status"),
                cards([context["flipped"]]),
            )
        )
    return format_html('<dl class="status-grid">{}</dl>', SafeString("".join(parts)))


def _point_cards(sides: list[dict]) -> SafeString:
    rows = []
    for side in sides:
        who = _("North–South") if side["team"] == 0 else _("East–West")
        if side["defenders"]:
            who = format_html("{} · {}", who, term("defenders", _("defenders"), "point-cards"))
        shown = cards(side["cards"]) if side["cards"] else SafeString('<span class="muted">—</span>')
        rows.append(
            format_html(
                '<div class="pc-side team-{}"><span class="pc-who">{}</span><strong class="pc-points">{}</strong>'
                '<span class="cards-row tiny">{}</span></div>',
                side["team"],
                who,
                side["points"],
                shown,
            )
        )
    return format_html(
        '<div class="point-cards" aria-label="{}">{}</div>', _("Point cards won"), SafeString("".join(rows))
    )


def _blocktrans(sentence: str, **values) -> SafeString:
    """A translated sentence with its values escaped, as `{% blocktranslate %}` makes it."""
    return SafeString(sentence % {name: conditional_escape(value) for name, value in values.items()})


def center(context: dict) -> SafeString:
    """The trick on the table (or the one just won), what the table waits for, the trick just
    won held for the page, a failed throw, and the hand's result."""
    view, trick_done = context["view"], context["trick_done"]
    parts = [
        _remembered(_slot_key(p, view, trick_done), partial(_slot, p, view, trick_done)) for p in context["players"]
    ]
    parts.append(format_html('<div class="table-message" role="status">{}</div>', _table_message(context, view)))
    previous = context["previous_trick"]
    if previous:
        parts.append(_previous(previous))
    out = [
        format_html(
            '<div class="trick{}" data-testid="trick" aria-label="{}"{}>{}</div>',
            " done" if trick_done else "",
            _("Cards on the table"),
            format_html(' data-done="{}"', view["tricks_played"]) if trick_done else "",
            SafeString("".join(parts)),
        )
    ]
    throw = (view or {}).get("last_failed_throw")
    if throw and throw.get("current"):
        out.append(_failed_throw(throw))
    if view and view.get("result") and view["phase"] in ("scored", "finished"):
        out.append(render_to_string("games/partials/result.html", {**context, "result": view["result"]}))
    return SafeString("\n".join(out))


def _slot_key(p: dict, view, trick_done: bool) -> tuple:
    """Everything a seat's place in the trick depends on (`_slot`)."""
    return (
        "slot",
        p["place"],
        p["position"],
        p["name"],
        bool(p.get("is_winning")),
        trick_done,
        bool(p.get("is_turn")) and view is not None and view["phase"] == "play",
        tuple((c["code"], c["trump"]) for c in p.get("played") or ()),
        tuple((c["code"], c["trump"]) for c in p.get("declared") or ()),
    )


def _slot(p: dict, view, trick_done: bool) -> SafeString:
    inner = ""
    if p.get("played"):
        inner = format_html(
            '<div class="played cards-row" data-n="{}" aria-label="{}">{}</div>',
            len(p["played"]),
            _blocktrans(_("%(name)s played"), name=p["name"]),
            cards(p["played"]),
        )
        if p.get("is_winning"):
            tag = _("took the trick") if trick_done else _("winning")
            inner += format_html('<span class="win-tag">{}</span>', tag)
    elif p.get("declared"):
        inner = format_html(
            '<div class="declared cards-row" data-n="{}" aria-label="{}">{}</div>',
            len(p["declared"]),
            _blocktrans(_("%(name)s declared"), name=p["name"]),
            cards(p["declared"]),
        )
    elif p.get("is_turn") and view["phase"] == "play":
        inner = SafeString('<div class="waiting-slot" aria-hidden="true"><span></span><span></span><span></span></div>')
    return format_html(
        '<div class="slot slot-{}{}" data-seat="{}">{}</div>',
        p["place"],
        " winning" if p.get("is_winning") else "",
        p["position"],
        inner,
    )


def _table_message(context: dict, view) -> SafeString:
    table = context["table"]
    if not view:
        if table.status == "waiting" and not context["is_owner"]:
            if context["can_start"]:
                return format_html("<p>{}</p>", _("Everyone is seated. The table's owner starts the match."))
            return format_html("<p>{}</p>", _("Waiting for four players. Take a seat!"))
        return SafeString("")
    phase = view["phase"]
    if phase in ("deal", "last_chance"):
        if phase == "deal":
            title = term("declare", _("Dealing…"), "felt")
        else:
            title = format_html("<strong>{}</strong> ", term("last-chance", _("Last chance to declare!"), "felt"))
            if context["clock_kind"] == "last_chance":
                title += clock(context["deadline_ms"], _("time left to declare"), False)
        parts = [format_html('<p class="phase-title">{}</p>', title)]
        standing = context["standing"]
        if standing:
            parts.append(
                format_html(
                    '<p>{} <span class="suit-big{}">{}</span></p>',
                    _blocktrans(_("%(name)s declared"), name=standing["name"]),
                    " red" if standing["red"] else "",
                    _("no-trump") if standing["no_trump"] else standing["symbol"],
                )
            )
        else:
            sentence = _("Declare trump with a level card (%(level)s) or a pair of jokers.")
            parts.append(format_html('<p class="muted-felt">{}</p>', _blocktrans(sentence, level=view["level"])))
        return SafeString("".join(parts))
    if phase == "bury":
        parts = []
        if context["flipped"]:
            parts.append(
                format_html(
                    '<div class="flipped"><span>{}</span> {}</div>',
                    _("Nobody declared; the kitty's 4th card is turned up:"),
                    cards([context["flipped"]]),
                )
            )
        if view["dealer"] == context["viewer_seat"]:
            parts.append(format_html("<p><strong>{}</strong></p>", _("You picked up the kitty. Bury 8 cards.")))
        else:
            sentence = _("%(name)s picks up the kitty and buries 8 cards…")
            parts.append(format_html("<p>{}</p>", _blocktrans(sentence, name=context["dealer_name"])))
        return SafeString("".join(parts))
    if phase == "play":
        parts = []
        last = context["last_trick"]
        if context["trick_done"] and last:
            sentence = ngettext(
                "%(winner)s takes the trick (%(points)s point).",
                "%(winner)s takes the trick (%(points)s points).",
                last["points"],
            )
            parts.append(
                format_html(
                    '<p class="trick-won">{}</p>', _blocktrans(sentence, winner=last["winner"], points=last["points"])
                )
            )
        if not view["trick"]:
            if view["turn"] == context["viewer_seat"]:
                lead = _("Your lead.")
            else:
                lead = _blocktrans(_("%(name)s leads."), name=context["turn_name"])
            parts.append(format_html('<p class="muted-felt">{}</p>', lead))
        return SafeString("".join(parts))
    return SafeString("")


def _previous(previous: dict) -> SafeString:
    slots = SafeString(
        "".join(
            format_html(
                '<div class="slot slot-{}{}"><div class="cards-row" data-n="{}">{}</div>{}</div>',
                slot["place"],
                " winning" if slot["is_winning"] else "",
                len(slot["cards"]),
                cards(slot["cards"]),
                format_html('<span class="win-tag">{}</span>', _("took the trick")) if slot["is_winning"] else "",
            )
            for slot in previous["slots"]
        )
    )
    return format_html(
        '<div class="trick-previous" data-trick="{}" data-winner="{}" aria-hidden="true">{}</div>',
        previous["number"],
        previous["winner_place"],
        slots,
    )


def _failed_throw(throw: dict) -> SafeString:
    if throw["defenders_delta"] > 0:
        penalty = _("Penalty: %(penalty)s points to the defenders.")
    else:
        penalty = _("Penalty: %(penalty)s points off the defenders.")
    return format_html(
        '<div class="notice failed-throw" role="alert"><strong>{}</strong>'
        '<div class="throw-row"><span>{}</span> <span class="cards-row small">{}</span></div>'
        '<div class="throw-row"><span>{}</span> <span class="cards-row small">{}</span></div><div>{}</div></div>',
        _blocktrans(_("%(name)s's throw failed!"), name=throw["name"]),
        _("Tried:"),
        cards(throw["attempted_faces"]),
        _("Must lead:"),
        cards(throw["forced_faces"]),
        _blocktrans(penalty, penalty=throw["penalty"]),
    )
