"""The templates' escape (app/web/templating.py, issue 21) gives what markupsafe.escape gives, the
same text and the same type, for every kind of value a template prints, and every template of the
environment prints through it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jinja2.runtime import Undefined
from markupsafe import Markup
from markupsafe import escape as markupsafe_escape

from app.web.templating import escape, templates


class Shown:
    """An object with its own HTML, like a rule badge's maker would return."""

    def __html__(self) -> str:
        return "<b>shown</b>"


class Text(str):
    """A str subclass (not a str by type): escaped through str() like markupsafe does."""


VALUES = ["", "plain", "<script>alert('x')</script>", 'a & b "c" \'d\'', "Ada · Bo → 3″", 0, 7, -2, 1.5,
          True, None, Markup("<em>safe</em>"), Markup(""), Shown(), Text("<i>&"), Undefined(),
          ["<li>"], {"k": "<v>"}]


def value_id(value) -> str:
    """A test id that is the same in every process (an object's repr carries its address, and
    xdist's workers must collect the same ids)."""
    return type(value).__name__ if isinstance(value, Shown) else repr(value)


@pytest.mark.parametrize("value", VALUES, ids=value_id)
def test_escape_gives_markupsafes_text_and_type_for_each_kind_of_value(value):
    assert escape(value) == markupsafe_escape(value)
    assert type(escape(value)) is type(markupsafe_escape(value)) is Markup


@given(st.text())
def test_escape_gives_markupsafes_text_for_any_player_text(text):
    assert escape(text) == markupsafe_escape(text)
    assert type(escape(text)) is Markup
    assert escape(Markup(text)) == markupsafe_escape(Markup(text))


def test_a_markup_is_already_safe_and_stays_as_it_is():
    safe = Markup("<b>already safe</b>")
    assert escape(safe) == "<b>already safe</b>"


@pytest.mark.parametrize("name", ["potham2038/_turn.html", "potham2038/_turn_macros.html", "_log.html",
                                  "potham2038/_roster.html", "potham2038/_status.html"])
def test_every_template_prints_through_it(name):
    template = templates.get_template(name)
    assert template.root_render_func.__globals__["escape"] is escape


def test_a_template_made_from_text_escapes_player_text_and_keeps_markup():
    template = templates.env.from_string("{{ name }}|{{ badge }}|{{ n }}")
    assert template.render(name="<b>Ada & \"Bo\"</b>", badge=Markup("<a>R-NOISE</a>"), n=3) == \
        "&lt;b&gt;Ada &amp; &#34;Bo&#34;&lt;/b&gt;|<a>R-NOISE</a>|3"
