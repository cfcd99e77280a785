"""Terminal colours for cards and seats (Rich), shared by the human agent and the CLI."""

from __future__ import annotations

from rich.console import Console
from rich.highlighter import RegexHighlighter
from rich.theme import Theme


class CardHighlighter(RegexHighlighter):
    """Colours card texts by suit and seat names wherever they appear in plain text."""

    base_style = "courtly."
    highlights = [  # noqa: RUF012 - Rich's API is a class attribute list
        r"(?<![\w])(?P<red>(?:10|[2-9JQKA])[HD])(?![\w])",
        r"(?<![\w])(?P<black>(?:10|[2-9JQKA])[SC])(?![\w])",
        r"(?<![\w])(?P<joker>Jk)(?![\w])",
        r"(?<![\w])(?P<seat>p\d)(?![\w])",
        r"(?P<you>\(you\))",
        r"(?P<bust>\b(?:bust|busted|busts)\b!?)",
    ]


THEME = Theme(
    {
        "courtly.red": "bold red",
        "courtly.black": "bold",
        "courtly.joker": "bold magenta",
        "courtly.seat": "cyan",
        "courtly.you": "bold green",
        "courtly.bust": "bold red",
    }
)


def card_console(**kwargs: object) -> Console:
    """A Rich console that colours cards and seats."""
    return Console(highlighter=CardHighlighter(), theme=THEME, **kwargs)  # type: ignore[arg-type]
