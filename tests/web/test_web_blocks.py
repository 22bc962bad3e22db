"""An htmx answer is one block of a page, rendered as the whole page renders it (site.render_block).

A calculator's form and result panel are blocks of mode_base.html that hold the page's own blocks
(``fields``, ``result``): rendered alone, the inherited block must still find them.
"""

from __future__ import annotations

import pytest
from jinja2 import DictLoader, Environment

from chessrate.web.site import Site, WebSettings, render_block

TEMPLATES = {
    "base.html": (
        "<main>{% block form %}<form>{% block fields scoped %}{% endblock %}</form>{% endblock %}</main>"
    ),
    "page.html": '{% extends "base.html" %}{% block fields %}<input name="{{ name }}">{% endblock %}',
    "own.html": '{% extends "base.html" %}{% block form %}<p>{{ name }}</p>{% endblock %}',
}


@pytest.fixture
def environment() -> Environment:
    return Environment(loader=DictLoader(TEMPLATES))


def test_an_inherited_block_holds_the_pages_own_blocks(environment: Environment) -> None:
    html = render_block(environment, "page.html", "form", {"name": "rating"}, ("base.html",))
    assert html == '<form><input name="rating"></form>'
    assert html in environment.get_template("page.html").render(name="rating")


def test_a_block_the_page_defines_wins_over_the_one_it_extends(environment: Environment) -> None:
    assert render_block(environment, "own.html", "form", {"name": "x"}, ("base.html",)) == "<p>x</p>"


def test_the_pages_bases_are_read_from_its_extends() -> None:
    site = Site(WebSettings())
    environment = site.environments["en"]
    assert site.bases(environment, "dwz.html") == ("mode_base.html", "base.html")
    assert site.bases(environment, "base.html") == ()
