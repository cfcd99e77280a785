"""The rules pages, in a real Chromium against a real ``courtly serve``: each game's rules
document (docs/rules/<game>.md) drawn as a page, checked against the document itself (its
sections, tables, cards, rule ids and worked examples); a rule id in a table's log opening that
rule; links within the page; no HTML ever injected from a document; axe, a phone's width and dark
mode.

The fixtures (``server``, ``browser``, ``new_page``) and helpers are in :mod:`tests.web.browsing`.
With ``COURTLY_SCREENSHOTS`` set to a folder, the pages are photographed there.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, Route, WebSocketRoute

from .browsing import GAMES, PHONE, Server, no_horizontal_scroll, photograph
from .test_browser_access import COLOURS, SCHEMES, assert_accessible, contrast, luminance, reddish
from .test_browser_table import bots_only_game

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"
DOCUMENT = "[data-testid=rules-document]"
CARD_TEXT = r"(?:10|[2-9AJQK])[SHDC]|Jk"
DRAWN = f"{DOCUMENT} h2"
"""The page's document is drawn once its sections' headings are."""


def document(game: str) -> str:
    return (DOCS / f"{game}.md").read_text(encoding="utf-8")


def words(markdown: str) -> str:
    """A heading's words as the page shows them: without Markdown's marks."""
    return re.sub(r"[*`]", "", markdown).strip()


def sections(markdown: str) -> list[str]:
    return [words(title) for title in re.findall(r"^## (.+)$", markdown, re.M)]


def defined_rules(markdown: str) -> list[str]:
    """The rule ids the document defines, in order: as headings ("### RG-9. ...") or as a
    paragraph's bold label ("**GSK-12 — ...**")."""
    found = re.findall(r"^(?:### ([A-Z]+-\d+)\. |\*\*([A-Z]+-\d+) — )", markdown, re.M)
    return list(dict.fromkeys(heading or label for heading, label in found))


def tables(markdown: str) -> int:
    return len(re.findall(r"^ *\|(?:\s*:?-{3,}:?\s*\|)+\s*$", markdown, re.M))


def prose_cards(markdown: str) -> set[str]:
    """The cards the document names in its text: not in code, which shows what to type, but
    for a card alone in code in the worked examples ("P1 plays `7H`"), a card played."""
    body = markdown.split("\n", 1)[1]
    rest, examples = re.split(r"^(?=## \d+\. Worked examples\n)", body, flags=re.M)
    examples, *after = re.split(r"^(?=## (?!\d+\. Worked))", examples, maxsplit=1, flags=re.M)
    examples = re.sub(rf"`({CARD_TEXT})`", r"\1", examples)
    text = re.sub(r"`[^`\n]*`", " ", "".join([rest, examples, *after]))
    return set(re.findall(rf"(?<![\w-])({CARD_TEXT})(?![\w-])", text))


def worked_examples(markdown: str) -> int:
    """How many worked examples the document's "Worked examples" section numbers."""
    part = re.split(r"^## \d+\. Worked examples\n", markdown, flags=re.M)[1]
    part = re.split(r"^## ", part, flags=re.M)[0]
    return len(re.findall(r"^\d+\. ", part, re.M))


def texts(page: Page, selector: str) -> list[str]:
    found: list[str] = page.locator(selector).evaluate_all(
        "elements => elements.map(e => e.textContent.replace(/\\s+/g, ' ').trim())"
    )
    return found


def attributes(page: Page, selector: str, name: str) -> list[str]:
    found: list[str] = page.locator(selector).evaluate_all(
        "(elements, name) => elements.map(e => e.getAttribute(name))", name
    )
    return found


# ---------------------------------------------------------------------------------- pages


def test_every_game_s_rules_page_draws_its_document(
    new_page: Callable[..., Page], server: Server
) -> None:
    """Each game's page shows its document: every section under its heading (and in the
    contents), every table, every card of its text drawn as a card, an anchor for every rule id
    and every worked example, and "In short" (the summary) first."""
    page = new_page(viewport={"width": 1280, "height": 900})
    for game, title in GAMES.items():
        markdown = document(game)
        page.goto(f"/rules/{game}")
        page.locator(DRAWN).first.wait_for()
        assert page.title() == f"{title}: rules · Courtly"
        assert page.get_by_role("heading", level=1).inner_text() == f"{title}: the rules"

        expected = ["In short", *sections(markdown)]
        assert texts(page, DRAWN) == expected, game
        contents = page.get_by_role("navigation", name="Contents")
        assert contents.locator("details").get_attribute("open") is not None  # wide: open
        links = texts(page, "nav.rules-contents > details > ol > li > a")
        assert links == expected, game
        for link in attributes(page, "nav.rules-contents a", "href"):
            assert page.locator(f"[id='{link[1:]}']").count() == 1, (game, link)

        summary = server.ok("GET", f"/api/games/{game}/rules")["rules"].split("\n")[0]
        (first,) = texts(page, f"{DOCUMENT} .rules-title")
        assert first.startswith(summary.strip()), (first, summary)

        assert page.locator(f"{DOCUMENT} table").count() == tables(markdown) > 0, game
        assert page.locator(f"{DOCUMENT} th").count() > 0

        shown: list[str] = page.locator(f"{DOCUMENT} [data-card]").evaluate_all(
            "cards => cards.map(card => card.dataset.card)"
        )
        assert set(shown) == prose_cards(markdown), game

        rules = defined_rules(markdown)
        assert len(rules) >= 18, game
        assert attributes(page, f"{DOCUMENT} .rule", "data-rule") == rules, game
        for rule in rules:
            anchor = page.locator(f"[id='{rule.lower()}']")
            assert anchor.count() == 1, (game, rule)
            assert anchor.inner_text().startswith(rule), (game, rule)
        assert texts(page, "nav.rules-contents .rules-contents-ids a") == rules

        examples = worked_examples(markdown)
        assert examples >= 5
        ids = attributes(page, f"{DOCUMENT} .worked-example", "id")
        assert ids == [f"example-{n}" for n in range(1, examples + 1)], game
        photograph(page, f"rules-{game}")


def test_the_cards_of_a_worked_example_are_drawn_in_its_text(
    new_page: Callable[..., Page], server: Server
) -> None:
    """God Save The King's example 3 as the document writes it: "P1 (AS, 6S, 2S) against P2 (3H,
    8H, QH)", each card drawn with its suit's colour and its name for screen readers."""
    page = new_page()
    page.goto("/rules/god-save-the-king#example-3")
    example = page.locator("#example-3")
    example.wait_for()
    assert example.inner_text().startswith("A push and a bluff that is caught.")
    cards = example.locator("[data-card]")
    assert attributes(page, "#example-3 [data-card]", "data-card")[:6] == [
        "AS",
        "6S",
        "2S",
        "3H",
        "8H",
        "QH",
    ]
    assert cards.first.get_attribute("aria-label") == "ace of spades"
    assert "card-red" in (example.locator("[data-card=QH]").get_attribute("class") or "")
    # Typed moves stay the words one types: `form left 10S` is code, not a card.
    typed = page.locator("code", has_text="form left 10S")
    assert typed.count() == 1 and typed.locator("[data-card]").count() == 0


# ---------------------------------------------------------------------------------- links


def with_rule_id(message: str, rule: str) -> str:
    """A server message whose story's first line ends with ``rule``: what a game's words say
    when a rule settles an event ("p1 flips 4H: a repeat, p1 busts (RG-6)")."""

    def add(value: Any) -> bool:
        if isinstance(value, dict):
            story = value.get("story")
            if isinstance(story, list) and story and isinstance(story[0], list):
                story[0][-1] = f"{story[0][-1]} ({rule})"
                return True
            return any(add(inner) for inner in value.values())
        return False

    data = json.loads(message)
    add(data)
    return json.dumps(data)


def test_a_rule_id_in_a_table_s_log_opens_that_rule_in_a_new_tab(
    new_page: Callable[..., Page], server: Server
) -> None:
    """A line of the table's story that names a rule links to it; the link opens the game's
    rules page in a new tab (the game goes on in this one), at that rule, marked and focused."""
    table = bots_only_game(server, "royal-gambit", seed=4, target_score=10)
    page = new_page(viewport={"width": 1280, "height": 900})

    def through(socket: WebSocketRoute) -> None:
        to_server = socket.connect_to_server()
        to_server.on_message(lambda message: socket.send(with_rule_id(str(message), "RG-6")))

    page.route_web_socket(re.compile(r"/api/tables/[^/]+/ws$"), through)
    page.goto(f"/table/{table}")
    # The rule id added at the end of the story's first line (the game's own lines name rules
    # too: their links are the same).
    link = page.locator("ol.story li.story-line").first.locator("a.rule-link").last
    link.wait_for()
    assert link.inner_text() == "RG-6"
    assert link.get_attribute("href") == "/rules/royal-gambit#rg-6"
    assert link.get_attribute("target") == "_blank"
    assert "new tab" in (link.get_attribute("aria-label") or "")

    with page.context.expect_page() as opened:
        link.click()
    rules = opened.value
    rules.locator("#rg-6.is-target").wait_for()
    assert rules.evaluate("location.pathname + location.hash") == "/rules/royal-gambit#rg-6"
    rule = rules.locator("#rg-6")
    assert rule.inner_text().startswith("RG-6. Bust check before powers")
    assert rules.evaluate("document.activeElement.id") == "rg-6"
    top = rules.evaluate("document.getElementById('rg-6').getBoundingClientRect().top")
    assert 0 <= top < 100, f"the rule is not at the top of the window: {top}"
    assert page.url.endswith(f"/table/{table}")  # the table stays where it was
    photograph(rules, "rules-opened-at-rg-6")

    # The table's folded rules: the summary, its rule ids linked, and the way to the whole rules.
    page.locator(".rules-panel summary").click()
    panel = page.locator(".rules-panel")
    panel.locator(".rules-text").wait_for()
    assert panel.locator("a.rule-link", has_text="RG-9").get_attribute("href") == (
        "/rules/royal-gambit#rg-9"
    )
    whole = panel.get_by_role("link", name=re.compile("All the rules of Royal Gambit"))
    assert whole.get_attribute("href") == "/rules/royal-gambit"
    assert whole.get_attribute("target") == "_blank"


def test_links_within_the_rules_page_and_an_anchor_it_has_not(
    new_page: Callable[..., Page], server: Server
) -> None:
    page = new_page(viewport={"width": 1280, "height": 900})
    page.goto("/rules/royal-gambit")
    page.locator(DRAWN).first.wait_for()

    # A rule id in the text goes to its rule on this page, and the address says so.
    section = page.locator("section.rules-section", has=page.locator("#section-2"))
    section.locator("a.rule-link", has_text="RG-19").first.click()
    page.wait_for_function("() => location.hash === '#rg-19'")
    assert page.evaluate("document.querySelector(':target')?.id") == "rg-19"
    assert page.locator("#rg-19").inner_text().startswith("RG-19. When reaching the target")
    # So does one in "In short", and one in the contents.
    page.locator(".rules-text a.rule-link", has_text="RG-12").click()
    page.wait_for_function("() => location.hash === '#rg-12'")
    page.get_by_role("navigation", name="Contents").get_by_role("link", name="RG-26").click()
    page.wait_for_function("() => location.hash === '#rg-26'")
    assert page.locator("#rg-26").is_visible()
    # The defining heading does not link to itself.
    assert page.locator("#rg-26 a.rule-link", has_text="RG-26").count() == 0
    # Back goes back to the rule before: the address is the page's history.
    page.go_back()
    page.wait_for_function("() => location.hash === '#rg-12'")

    page.goto("/rules/royal-gambit#rg-99")
    page.locator(DRAWN).first.wait_for()
    missing = page.locator(".rules-missing")
    assert "no rule RG-99" in missing.inner_text()
    page.goto("/rules/royal-gambit#rg-9")
    page.locator("#rg-9.is-target").wait_for()
    assert page.locator(".rules-missing").count() == 0

    page.goto("/rules/chess")
    alert = page.get_by_role("alert")
    assert "unknown game 'chess'" in alert.inner_text() and "royal-gambit" in alert.inner_text()


SCRIPTED = """# Royal Gambit

An image <img src="x" onerror="window.pwned = 'img'"> and a script
<script>window.pwned = 'script'</script> in a paragraph.

<div onmouseover="window.pwned = 'div'">A block of HTML</div>

## 1. Links

[to a script](javascript:window.pwned='link'), [to a file](../../pyproject.toml),
[to another game](kings-court.md), [to the web](https://example.org/rules) and ![a
picture](https://example.org/x.png).

| Card | <b>bold</b> |
|---|---|
| 7H | <i onclick="window.pwned = 'cell'">cell</i> |
"""


def test_a_document_s_html_is_shown_as_text_never_run(
    new_page: Callable[..., Page], server: Server
) -> None:
    """Whatever a document holds, the page makes its own elements: HTML is shown as the text it
    is, a link goes only to the web or to a rules page, and nothing of the document runs."""
    page = new_page()

    def answer(route: Route) -> None:
        body = route.fetch().json()
        route.fulfill(json={**body, "document": SCRIPTED})

    page.route("**/api/games/royal-gambit/rules", answer)
    page.goto("/rules/royal-gambit")
    page.locator(DRAWN).first.wait_for()
    drawn = page.locator(DOCUMENT)
    for tag in ("img", "script", "b", "i", "iframe"):
        assert drawn.locator(tag).count() == 0, tag
    assert drawn.locator("[onerror], [onclick], [onmouseover]").count() == 0
    text = drawn.inner_text()
    assert '<img src="x" onerror=' in text and "<script>" in text and "<div onmouseover" in text
    hrefs = attributes(page, f"{DOCUMENT} a:not(.rule-link)", "href")
    assert hrefs == ["/rules/kings-court", "https://example.org/rules"], hrefs
    assert drawn.get_by_text("to a script").count() == 1  # its words, without the link
    assert page.evaluate("window.pwned") is None
    drawn.get_by_text("A block of HTML").hover()
    assert page.evaluate("window.pwned") is None


# ---------------------------------------------------------------------------------- access


def test_the_rules_pages_pass_axe_fit_a_phone_and_have_a_dark_mode(
    new_page: Callable[..., Page], server: Server
) -> None:
    found: list[str] = []
    page = new_page(viewport={"width": 1280, "height": 900})
    for game in ("god-save-the-king", "goths-save-the-queen"):
        page.goto(f"/rules/{game}#example-2")
        page.locator(DRAWN).first.wait_for()
        assert_accessible(page, f"rules page {game}", found)

    # Dark mode darkens the page; the cards in the text stay readable, red told from black.
    page.goto("/rules/god-save-the-king")
    page.locator(DRAWN).first.wait_for()
    for scheme in SCHEMES:
        page.emulate_media(color_scheme=scheme)
        colours = page.evaluate(COLOURS)
        for suit in ("red", "black"):
            card = colours[suit]
            assert contrast(card["text"], card["background"]) >= 4.5, (scheme, suit)
        assert reddish(colours["red"]["text"]) and not reddish(colours["black"]["text"])
        assert contrast(colours["text"], colours["page"]) >= 7, scheme
        dark = luminance(colours["page"]) < 0.05
        assert dark == (scheme == "dark"), (scheme, colours["page"])
    page.emulate_media(color_scheme="light")

    phone = new_page(viewport=PHONE)
    for game in GAMES:
        phone.goto(f"/rules/{game}")
        phone.locator(DRAWN).first.wait_for()
        no_horizontal_scroll(phone)
        # The contents are folded above the text, and open on a tap.
        contents = phone.get_by_role("navigation", name="Contents")
        assert contents.locator("details").get_attribute("open") is None
        assert not contents.locator("a", has_text="In short").is_visible()
        contents.locator("summary").click()
        assert contents.locator("a", has_text="In short").is_visible()
        # A wide table's rows are boxes, each cell under its column's name.
        boxed = phone.locator(".rules-doc-table-wide tbody tr").first
        assert boxed.evaluate("row => getComputedStyle(row).display") == "block", game
        assert boxed.locator(".cell-label").first.is_visible()
        for scheme in SCHEMES:
            phone.emulate_media(color_scheme=scheme)
            no_horizontal_scroll(phone)
    phone.emulate_media(color_scheme="light")
    phone.goto("/rules/royal-gambit#section-6")
    phone.locator("#section-6.is-target").wait_for()
    assert_accessible(phone, "rules page royal-gambit phone", found)
    assert not found, "\n\n".join(found)
