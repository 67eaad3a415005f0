"""An automated accessibility check of a live page: axe-core (the copy bundled in the pinned
PyPI package axe-playwright-python; nothing is fetched) runs inside a Playwright sync page.

    from tests.axe import assert_accessible
    assert_accessible(page, "lobby at 390x844, zh-hans")

fails listing every violation whose impact is serious or critical (WCAG A/AA failures
such as text contrast below 4.5:1, unnamed controls and links, a missing lang attribute),
with the rule, what it asks for and the CSS selector of each offending element. Minor and
moderate findings (best practices) are left to review.

axe cannot measure the contrast of text over a gradient, an image or a semi-transparent
layer, and reports it as "needs review", not as a violation. `measured_contrast=True`
fails on such text too, so a page keeps solid colours behind its text where it matters.
"""

from axe_playwright_python.sync_playwright import Axe

BLOCKING = ("serious", "critical")
# axe's reasons for leaving a text's contrast unmeasured that a page can fix (not, e.g.,
# "only non-text characters" for a lone ♠).
UNMEASURED = {
    "bgGradient",
    "bgImage",
    "imgNode",
    "bgOverlap",
    "fgAlpha",
    "elmPartiallyObscured",
    "elmPartiallyObscuring",
    "pseudoContent",
    "complexTextShadows",
}
_AXE = Axe()


# Resolves once every finite animation or transition of the page has ended (a card still
# flying in, a trick sweeping away): axe judges what stays on the screen, not one frame of a
# motion, whose blended colours are no colours of the page's (infinite ones never end).
SETTLED = """() => Promise.race([
  Promise.all(document.getAnimations()
    .filter(a => Number.isFinite(a.effect && a.effect.getComputedTiming().endTime))
    .map(a => a.finished.catch(() => null))),
  new Promise(done => setTimeout(done, 5000)),  // a paused one would never end
])"""


def run(page) -> dict:
    """axe-core's results (violations and needs-review) for the page once its motions ended."""
    page.evaluate(SETTLED)
    # Types not listed here keep only one node each; passes are not needed.
    return _AXE.run(page, options={"resultTypes": ["violations", "incomplete"]}).response


def violations(page, *, impacts=BLOCKING, results=None) -> list[dict]:
    results = results or run(page)
    return [v for v in results["violations"] if v["impact"] in impacts]


def unmeasured_contrast(page, *, results=None, reasons=UNMEASURED) -> list[dict]:
    """Text whose contrast axe could not measure for one of `reasons`, as one violation-like entry."""
    results = results or run(page)
    nodes = []
    for entry in results["incomplete"]:
        if entry["id"] != "color-contrast":
            continue
        for node in entry["nodes"]:
            keys = {(check.get("data") or {}).get("messageKey") for check in node.get("any", [])}
            # A chart's labels are SVG <text>: axe never measures inside an SVG ("imgNode");
            # charts (games/history/charts.py) draw them in the page's text colour on white.
            if keys == {"imgNode"} and node.get("html", "").startswith("<text"):
                continue
            if keys & reasons:
                nodes.append(node)
    if not nodes:
        return []
    return [
        {
            "id": "color-contrast (unmeasured)",
            "impact": "serious",
            "help": "Text must sit on a solid background whose contrast can be measured",
            "nodes": [dict(node, failureSummary=node["any"][0]["message"]) for node in nodes],
        }
    ]


def describe(violation: dict) -> str:
    nodes = []
    for node in violation["nodes"]:
        where = " ".join(" > ".join(t) if isinstance(t, list) else t for t in node["target"])
        why = node.get("failureSummary", "").replace("\n", " ").strip()
        nodes.append(f"    {where}: {why}" if why else f"    {where}")
    head = f"  [{violation['impact']}] {violation['id']}: {violation['help']} ({len(violation['nodes'])} element(s))"
    return "\n".join([head, *nodes])


def assert_accessible(page, label: str, *, measured_contrast: bool = False, unmeasured=UNMEASURED) -> None:
    """Fail with a readable list if axe finds any serious or critical violation on `page`
    (and, with `measured_contrast`, any text whose contrast it could not measure for one of
    the `unmeasured` reasons)."""
    results = run(page)
    found = violations(page, results=results)
    if measured_contrast:
        found += unmeasured_contrast(page, results=results, reasons=unmeasured)
    assert not found, f"{label} ({page.url}): {len(found)} accessibility violation(s)\n" + "\n".join(
        describe(v) for v in found
    )
