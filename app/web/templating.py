"""The Jinja2 environment shared by every page and partial (autoescape on: names are player text)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import markupsafe
from fastapi.templating import Jinja2Templates
from jinja2 import ChoiceLoader, Environment, FileSystemLoader, PrefixLoader, Template, select_autoescape
from markupsafe import Markup

from app import rulesets

try:  # the C escaping markupsafe.escape itself calls (a private name: without it, markupsafe's own)
    from markupsafe import _escape_inner
except ImportError:  # pragma: no cover - another markupsafe
    _escape_inner = None

_as_markup = str.__new__  # a Markup of exactly this text, without Markup.__new__'s checks


def escape(value: Any, /) -> Markup:
    """markupsafe.escape, the same text and type for every value, made cheaper for the two values
    a template prints most (a step's panels printed some 1,000 values, each escaped
    through two Python calls, about a sixth of their render): a plain str is escaped in C and
    wrapped without Markup.__new__'s checks, and a Markup (a macro's output, a rule badge) is
    already safe, so it is itself, not a copy. Anything else as markupsafe does it
    (tests/unit/test_templating_escape.py compares the two)."""
    kind = type(value)
    if kind is str and _escape_inner is not None:
        return _as_markup(Markup, _escape_inner(value))
    if kind is Markup:
        return value
    return markupsafe.escape(value)


class FastEscapeTemplate(Template):
    """A template whose `{{ ... }}` escape with `escape` above. Jinja's compiled code calls the
    `escape` of the template's own namespace at render time (imported there from jinja2.runtime):
    this sets it as each template is made, so nothing outside this environment changes."""

    @classmethod
    def _from_namespace(cls, environment: Any, namespace: Any, globals: Any) -> Template:
        if "escape" in namespace:
            namespace["escape"] = escape
        return super()._from_namespace(environment, namespace, globals)


APP = Path(__file__).resolve().parents[1]


def template_loader() -> ChoiceLoader:
    """The shell's templates (templates/) by their own names, and each ruleset's partials
    (app/rulesets/<package>/templates/) as "<package>/<name>": a ruleset is one folder, its
    templates inside it, and a page names them as it always did."""
    own = {package: FileSystemLoader(APP / "rulesets" / package / "templates")
           for package in rulesets.PACKAGES}
    return ChoiceLoader([FileSystemLoader(APP.parent / "templates"), PrefixLoader(own)])


templates = Jinja2Templates(env=Environment(loader=template_loader(), autoescape=select_autoescape()))
templates.env.template_class = FastEscapeTemplate  # before any template is loaded
# ruleset id -> the address of its rule glossary (app/web/routes/rulesets.py fills it)
RULE_PAGES: dict[str, str] = {}
# ruleset id -> the partial of a saved game's line in the lists (home, admin): its web part's ROW
ROWS: dict[str, str] = {}
GENERIC_ROW = "_ruleset_row.html"


def pool_text(pool: dict[str, int] | None) -> str:
    """{"red": 3, "white": 1} -> "3 red + 1 white"."""
    parts = [f"{n} {colour}" for colour, n in (pool or {}).items() if n]
    return " + ".join(parts) or "—"


templates.env.filters["pool"] = pool_text


def rule_badge(text: str | None) -> Markup:
    """Rule ids ("R-NOISE", or "R-NOISE · R-ALARM") as badges that explain themselves: each a link
    to its entry on /rules carrying the summary, which static/rules.js shows in place on a tap
    (touch, keyboard, screen readers); without JavaScript the link opens the entry. Made once
    per text while the rulesets and their glossaries stay as they are (a turn panel
    shows dozens)."""
    return _badges(str(text or ""), len(rulesets.RULESETS), len(RULE_PAGES))


@lru_cache(maxsize=1024)
def _badges(text: str, _rulesets: int, _pages: int) -> Markup:
    badges = []
    for rule in (part.strip() for part in text.split("·")):
        if not rule:
            continue
        said, page = None, ""
        if (found := rulesets.rule_summary(rule)) is not None:  # the ruleset whose id it is
            page, said = RULE_PAGES.get(found[0].id, f"/rules/{found[0].id}"), found[1]
        if said is None:  # an id the glossary does not know: a plain badge, never a broken link
            badges.append(Markup('<span class="rule">{}</span>').format(rule))
            continue
        badges.append(Markup('<a class="rule" href="{2}#{0}" data-rule="{0}" data-summary="{1}" '
                             'aria-expanded="false" title="{1}">{0}</a>').format(rule, said, page))
    return Markup(" ").join(badges)


templates.env.globals["rule_badge"] = rule_badge


def ruleset_name(ruleset_id: str | None) -> str:
    """"Potham Chronicles 2038", "Zone (d6 pools, range bands)"…: a game's ruleset, on every page."""
    found = rulesets.RULESETS.get(ruleset_id or rulesets.DEFAULT)
    return found.name if found else str(ruleset_id)


def game_row(ruleset_id: str | None) -> str:
    """The partial that shows a saved game's turn and state in the lists (a game from before
    rulesets is the default ruleset's); "Round N" for a ruleset without one."""
    return ROWS.get(ruleset_id or rulesets.DEFAULT, GENERIC_ROW)


templates.env.globals.update(ruleset_name=ruleset_name, game_row=game_row, RULESETS=rulesets.RULESETS,
                             DEFAULT_RULESET=rulesets.DEFAULT)
