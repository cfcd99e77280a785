"""How the terminal shows Courtly, for the human agent and the command line: colours for cards
and seats (Rich), the game's story as the terminal prints it, a spinner while something takes
a while, and long texts laid out to the terminal's width."""

from __future__ import annotations

import re
import textwrap
import threading
from bisect import bisect_left
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from rich.console import Console
from rich.highlighter import RegexHighlighter
from rich.markup import escape
from rich.theme import Theme

from ..core.events import CHANCE, observer_bit
from ..core.game import State
from ..core.story import Story


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


# -------------------------------------------------------------------------------- the story


def print_told(console: Console, line: str) -> None:
    """Print a line of :meth:`Telling.lines`; an indented (chance's) line keeps its indent on
    every row it wraps to, so its words stay under the move they follow."""
    text = console.render_str(line)  # its markup and the cards' colours, as print would
    indent = len(text.plain) - len(text.plain.lstrip(" "))
    if not indent:
        console.print(text)
        return
    margin = " " * indent
    for row in text[indent:].wrap(console, max(console.width - indent, 20)):
        row.rstrip()
        console.print(margin, row, sep="", soft_wrap=True)


class Telling:
    """The game's story as the terminal prints it: the lines every front end reads
    (:class:`~courtly.core.story.Story`), each seat reading only its own, chance's lines indented
    under the move they follow, and a note on a move the terminal played for a person (their
    only choice, or the next step of a line they typed)."""

    def __init__(self, num_players: int) -> None:
        self.story = Story()
        self.num_players = num_players
        self.events = 0
        """How many events have been told."""
        self._chance: set[int] = set()
        self._notes: dict[int, tuple[int, str]] = {}

    def tell(self, state: State, actor: int, item: Any, note: str | None = None) -> None:
        """Tell the event about to be applied to ``state`` (its index: ``len(state.history)``),
        with the note its actor is shown."""
        index = len(state.history)
        self.story.tell(state, actor, item)
        if actor == CHANCE:
            self._chance.add(index)
        elif note is not None:
            self._notes[index] = (actor, note)
        self.events = index + 1

    def lines(self, seat: int | None, since: int) -> list[str]:
        """What ``seat`` (``None``: everyone) is told of the events from index ``since`` on, as
        Rich markup."""
        bit = observer_bit(seat, self.num_players)
        told = self.story.lines
        out: list[str] = []
        noted = -1
        for index, knowers, text in told[bisect_left(told, since, key=itemgetter(0)) :]:
            if not knowers & bit:
                continue
            line = ("  " if index in self._chance else "") + escape(text)
            note = self._notes.get(index)
            if note is not None and note[0] == seat and noted != index:
                line += f" [dim]({note[1]})[/]"
                noted = index
            out.append(line)
        return out


# ---------------------------------------------------------------------------------- waiting

THINKING_DELAY = 0.4
"""Seconds a wait lasts before its spinner shows: a quick move flashes nothing."""


@contextmanager
def thinking(console: Console, text: str, delay: float = THINKING_DELAY) -> Iterator[None]:
    """A line saying ``text`` beside a spinner while the block runs longer than ``delay``
    seconds, erased when it ends; nothing at all where the console is no interactive terminal
    (output piped, or read by a test)."""
    if not console.is_interactive:
        yield
        return
    status = console.status(text, spinner="dots")
    lock = threading.Lock()
    state = {"shown": False, "over": False}

    def show() -> None:
        with lock:
            if not state["over"]:
                status.start()
                state["shown"] = True

    timer = threading.Timer(delay, show)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        with lock:
            state["over"] = True
            if state["shown"]:
                status.stop()


# ---------------------------------------------------------------------------- laid out to fit

_MARKER = re.compile(r"(\d+[.)]\s+|\d+ (?=[A-Z])|[-•*]\s+|[A-Z]{2,5}-\d+[a-z]?\s+)(?=\S)")
"""The label an item of a list starts with: ``1.``, ``1 Build``, ``-``, a rule id (``RG-14``)."""
_COLUMN = re.compile(r"(?<=\S) {2,}(?=\S)")
"""Two spaces or more between words: the gap before a column of text (``hit  – turn``)."""
_LABEL_COLUMNS = 30
"""How far a label's column may start and still hang its item's text (``A-10 of your suit``)."""
_SENTENCE_END = (".", ":", "!", "?")


@dataclass
class _Paragraph:
    """Lines of a text that are one paragraph: the first line's start (indent and label), where
    its other lines hang, and its words."""

    head: str
    hang: int
    text: str
    last: str

    def joins(self, line: str, indent: int, source_width: int) -> bool:
        """Whether ``line`` (indented by ``indent``) goes on with this paragraph: it hangs where
        this one's text does, starts no item of its own, and the line before was cut to fit
        the source's width rather than ended there (no sentence end, or no room left)."""
        if indent != self.hang or _hang(line, indent, None) != indent:
            return False
        last = self.last.rstrip()
        return not last.endswith(_SENTENCE_END) or len(last) >= source_width - 12


def _hang(line: str, indent: int, following: str | None, source_width: int = 0) -> int:
    """Where the continuation lines of ``line`` start: where the following line says they do
    (under a column of ``line``'s text, or a little in when ``line`` was cut to fit the source's
    width), under its text after a label (``RG-1  text``, ``1. text``, ``Jack    text``), or
    under its first letter."""
    starts = [gap.end() for gap in _COLUMN.finditer(line, indent)]
    if following is not None and _hang(following, indent, None) == indent:
        under = len(following) - len(following.lstrip(" "))
        cut = len(line.rstrip()) >= source_width - 12
        flush = not starts and not line.rstrip().endswith(_SENTENCE_END)
        if cut and under == indent and flush:
            return indent  # a sentence carried on flush below: no label to hang under
        word = line[under - 1 : under] == " " and line[under : under + 1] not in ("", " ")
        if under > indent and (under in starts or (cut and (word or under <= indent + 4))):
            return under
    marker = _MARKER.match(line, indent)
    if marker is not None:
        return marker.end()
    if starts and starts[0] <= indent + _LABEL_COLUMNS:
        return starts[0]
    return indent


def reflow(text: str, width: int) -> str:
    """``text``, laid out in lines of at most ``width`` characters: a text written for a wider
    page (a game's rules summary) keeps its headings, indented items and columns, each item's
    lines hanging under its text, and no sentence is cut into a line of its own at the left
    margin. A text that fits is returned as it is."""
    lines = text.splitlines()
    source_width = max((len(line.rstrip()) for line in lines), default=0)
    if source_width <= width:
        return text
    paragraphs: list[_Paragraph | None] = []  # None: a blank line
    for number, line in enumerate(lines):
        if not line.strip():
            paragraphs.append(None)
            continue
        indent = len(line) - len(line.lstrip(" "))
        current = paragraphs[-1] if paragraphs else None
        if current is not None and current.joins(line, indent, source_width):
            current.text += " " + line.strip()
            current.last = line
            continue
        following = lines[number + 1] if number + 1 < len(lines) else None
        hang = _hang(line, indent, following, source_width)
        paragraphs.append(_Paragraph(line[:hang], hang, line[hang:].strip(), line))
    out: list[str] = []
    for paragraph in paragraphs:
        if paragraph is None:
            out.append("")
            continue
        hang = paragraph.hang if paragraph.hang <= width // 2 else min(paragraph.hang, 4)
        wrapper = textwrap.TextWrapper(
            width,
            initial_indent=paragraph.head
            if len(paragraph.head) < width
            else paragraph.head.strip(),
            subsequent_indent=" " * hang,
            break_on_hyphens=False,
        )
        out += wrapper.wrap(paragraph.text) or [paragraph.head.rstrip()]
    return "\n".join(out)
