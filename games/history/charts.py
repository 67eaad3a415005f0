"""Charts for the profile, drawn on the server as SVG (no script, no library): this module
lays out the coordinates, templates/games/partials/chart.html draws them.

The drawing is 360 × 200 units, about a phone's width, so its 11-unit labels read at
their size there and grow with a wider screen. Pure: no Django.
"""

import math
from dataclasses import dataclass, field

WIDTH, HEIGHT = 360, 200
LEFT, RIGHT, TOP, BOTTOM = 46, 352, 12, 164  # the plot area; axis labels outside it
X_TICKS = 5
BAR_FILL = {"up": "#2e7d4f", "down": "#c62828", "even": "#9aa5a0"}  # ours up, theirs, none


@dataclass
class Chart:
    title: str
    x_label: str
    y_label: str
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = RIGHT
    top: int = TOP
    bottom: int = BOTTOM
    y_ticks: list[dict] = field(default_factory=list)
    x_ticks: list[dict] = field(default_factory=list)
    path: str = ""  # a line chart's polyline
    last: dict | None = None  # its last point, labelled
    bars: list[dict] = field(default_factory=list)
    zero: float | None = None  # a bar chart's baseline

    @property
    def y_label_at(self) -> float:
        return (self.top + self.bottom) / 2

    @property
    def x_label_at(self) -> float:
        return (self.left + self.right) / 2

    @property
    def bars_svg(self) -> str:
        """The bars as SVG elements, written here rather than by a template loop (a loop
        over 40 bars was a large share of the profile's render, bench/pages.py). Numbers and
        fixed words only: nothing in it needs escaping."""
        return "".join(
            f'<rect class="bar bar--{bar["kind"]}" x="{bar["x"]}" y="{bar["y"]}" width="{bar["width"]}" '
            f'height="{bar["height"]}" fill="{BAR_FILL[bar["kind"]]}"><title>{bar["value"]:+d}</title></rect>'
            for bar in self.bars
        )


def nice_ticks(low: float, high: float, count: int = 4) -> list[float]:
    """Round tick values (1, 2 or 5 × a power of ten apart, at least 1: the charts count
    whole levels and rating points) that cover [low, high]."""
    if high <= low:
        low, high = low - 1, high + 1
    raw = (high - low) / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = max(next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw), 1)
    first, last = math.floor(low / step), math.ceil(high / step)
    return [k * step for k in range(first, last + 1)]


def _label(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _scale(ticks: list[float]):
    low, high = ticks[0], ticks[-1]
    return lambda value: BOTTOM - (value - low) / (high - low) * (BOTTOM - TOP)


def _x_ticks(count: int, x_of, first_number: int) -> list[dict]:
    """About X_TICKS numbered positions along the x axis, always the first and the last."""
    if count == 0:
        return []
    wanted = sorted({round(i * (count - 1) / (X_TICKS - 1)) for i in range(X_TICKS)}) if count > 1 else [0]
    return [{"x": round(x_of(i), 1), "label": str(first_number + i)} for i in wanted]


def line_chart(values: list[int], *, title: str, x_label: str, y_label: str, first_number: int = 0) -> Chart:
    """One value per x step (e.g. a rating after each rated match), joined by a line."""
    chart = Chart(title=title, x_label=x_label, y_label=y_label)
    if not values:
        return chart
    ticks = nice_ticks(min(values), max(values))
    y_of = _scale(ticks)
    span = max(len(values) - 1, 1)

    def x_of(i: int) -> float:
        return LEFT + i * (RIGHT - LEFT) / span if len(values) > 1 else (LEFT + RIGHT) / 2

    chart.y_ticks = [{"y": round(y_of(t), 1), "label": _label(t)} for t in ticks]
    chart.x_ticks = _x_ticks(len(values), x_of, first_number)
    points = [(round(x_of(i), 1), round(y_of(v), 1)) for i, v in enumerate(values)]
    chart.path = "M" + " L".join(f"{x} {y}" for x, y in points)
    chart.last = {"x": points[-1][0], "y": points[-1][1], "label": str(values[-1])}
    return chart


def bar_chart(values: list[int], *, title: str, x_label: str, y_label: str, first_number: int = 1) -> Chart:
    """Signed bars from a zero line (e.g. levels gained, + ours, − theirs, per hand)."""
    chart = Chart(title=title, x_label=x_label, y_label=y_label)
    if not values:
        return chart
    top = max(max(values), 1)
    ticks = nice_ticks(min(min(values), -1), top)
    y_of = _scale(ticks)
    slot = (RIGHT - LEFT) / len(values)

    def x_of(i: int) -> float:
        return LEFT + (i + 0.5) * slot

    zero = y_of(0)
    chart.zero = round(zero, 1)
    chart.y_ticks = [{"y": round(y_of(t), 1), "label": _label(t)} for t in ticks]
    chart.x_ticks = _x_ticks(len(values), x_of, first_number)
    width = min(max(slot * 0.7, 1.0), 16.0)
    for i, value in enumerate(values):
        y = y_of(value)
        chart.bars.append(
            {
                "x": round(x_of(i) - width / 2, 1),
                "width": round(width, 1),
                "y": round(min(y, zero), 1),
                "height": round(max(abs(zero - y), 1.0), 1),  # a zero still shows as a sliver
                "kind": "up" if value > 0 else ("down" if value < 0 else "even"),
                "value": value,
            }
        )
    return chart
