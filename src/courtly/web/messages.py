"""What the server sends a seat about its table: its message, the answer to a move, a refusal, a
hint. Declared apart from the requests (:mod:`.protocol`, which re-exports all of them) because
these need no validation, and so no pydantic: the browser's own engine (:mod:`courtly.offline`,
under Pyodide, which has no pydantic) builds the very same messages from the very same code.

Each is a ``TypedDict``, checked by mypy and sent as it is, with no validation or copy at run
time (a view is built and sent for every seat after every move).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired

from typing_extensions import TypedDict


class Schema:
    """Words a type carries into the OpenAPI schema (``replace``: the whole schema, otherwise
    added to the schema made from the type). It is read through pydantic's hook for annotations,
    so this module needs no pydantic to import."""

    def __init__(self, words: dict[str, Any], replace: bool = True) -> None:
        self.words = words
        self.replace = replace

    def __get_pydantic_json_schema__(self, core_schema: Any, handler: Any) -> dict[str, Any]:
        if self.replace:
            return dict(self.words)
        schema: dict[str, Any] = handler(core_schema)
        schema.update(self.words)
        return schema


Status = Literal["open", "playing", "over", "closed"]
"""``closed``: abandoned, closed by the server before its game ended (no result, no record)."""
Mode = Literal["realtime", "turn-based"]
SeatKind = Literal["person", "bot"]
ReplaySeat = int | Literal["spectator", "all"]
LogEvent = Annotated[
    list[str],
    Schema({"minItems": 2, "maxItems": 2, "description": "the actor, and the item"}, replace=False),
]
"""An event of a log as its reader may know it: the actor (``p1``, ``chance``) and the item
(``?`` for what the reader may not know)."""
OptionValue = str | int | float | bool
StoryLine = Annotated[
    tuple[int, str],
    # (as the pair it is: openapi-typescript reads a tuple's item count as a repeat of it)
    Schema(
        {
            "type": "array",
            "prefixItems": [{"type": "integer"}, {"type": "string"}],
            "items": False,
            "description": "the event's index, and the text",
        }
    ),
]
"""A line of a game's story as its reader was told it: the index of the event it tells (lines
are told before their event is applied: an event's consequences are told with it), then the
text. An event may be told in several lines, or in none to a reader it is kept from."""


class Refusal(TypedDict):
    """Every refused request's answer: what is wrong, in words (a stale move also gets the
    table's current ``version``)."""

    detail: str
    version: NotRequired[int]


def refusal(detail: str, version: int | None = None) -> Refusal:
    """The one place a refusal's body is made (REST, the WebSocket's ``error`` and ``refused``
    messages): ``detail``, and for a stale move the table's current ``version``."""
    body: Refusal = {"detail": detail}
    if version is not None:
        body["version"] = version
    return body


class Clock(TypedDict):
    """A table's time rules, in seconds (0: none)."""

    initial: float
    increment: float
    per_move: float
    away: float


class SeatPublic(TypedDict):
    """What everyone may know of a seat (never its token)."""

    seat: int
    title: str
    """What the seat is in this game, in words (``Ostrogoth King``); empty where every seat
    plays the same part."""
    kind: SeatKind
    name: str
    bot: str | None
    taken: bool
    bot_control: bool
    clock: float | None
    """Seconds left on the seat's clock (None: no clock)."""
    clock_running: bool


class Deal(TypedDict):
    """What everyone may know of a table's deal: the commitment to its seed from the start, the
    seed itself once the game is over (or at once where its creator chose it), and whether its
    creator chose it (and so may know every hand)."""

    chosen: bool
    """The table's creator chose the seed (``seed`` at creation), so they may know every card
    dealt; also true of a table made before deals were committed to, whose seed may have been
    chosen."""
    commitment: str | None
    """SHA-256, in hexadecimal, of ``courtly-deal/1:TABLE:SEED:SALT``: published from the
    start, so that the seed revealed at the end can be checked (null for a table made before
    deals were committed to)."""
    seed: str | None
    """The seed every chance event was drawn from, in decimal (as text: a JavaScript number
    cannot hold every seed exactly): null until the game is over, unless chosen (then it is no
    secret: anyone may know what its creator knows)."""
    salt: str | None
    """The commitment's salt, revealed with the seed once the game is over."""


class RecordDeal(TypedDict):
    """A finished table's deal in its record (``courtly replay --verify`` checks it against the
    record's ``seed``)."""

    scheme: str
    """``courtly-table/1``: chance event ``i`` drawn by ``random.Random("courtly-table/SEED/i")``,
    after a tutorial's prepared deal."""
    table: str
    salt: str
    commitment: str
    chosen: bool
    tutorial: bool


class TableSummary(TypedDict):
    """A table as the lobby lists it."""

    id: str
    game: str
    title: str
    players: int
    options: dict[str, OptionValue]
    variant: list[str]
    """Each option that is not the rules as written, in a person's words (``Shorter track for
    more players: 5``): empty for the rules as written."""
    mode: Mode
    clock: Clock
    status: Status
    version: int
    to_move: list[int]
    """The seats to move (public in every view); empty unless playing."""
    hints: bool
    seats: list[SeatPublic]
    free_seats: list[int]
    created_at: float
    rematch_of: str | None
    rematch_id: str | None
    tutorial: bool
    """A tutorial table: a learner alone with bots on a prepared deal (never listed, never
    joined)."""
    winners: list[int]
    """The seats that won (empty unless the game is over, or when no one won)."""
    deal: Deal
    """The commitment to the table's seed, and the seed once it may be known."""
    rated: bool
    """Its result moves its players' ratings (casual otherwise)."""


class LegalAction(TypedDict):
    id: int
    text: str
    """The action's text: what a move sends (or its ``id``), and what a log event says."""
    label: str
    """What a button for the move says, in the game's words (``Vulture: back the Vulture``)."""
    caution: NotRequired[str]
    """The game's warning before a legal move that throws the game away: confirm first."""


class Notice(TypedDict):
    """Something that happened to a table besides its moves (a seat away, back, out of time)."""

    version: int
    at: float
    text: str


class Standing(TypedDict):
    """One seat at the end of a game: its place (1 for the winners; tied seats share a place),
    its score in the game's words (empty where the game keeps none), and what else decided it."""

    seat: int
    place: int
    score: str
    note: str


class Result(TypedDict):
    """How a finished game ended: the reason in a sentence (the rule that ended it, in words),
    every seat's standing, best first, and the returns behind them."""

    returns: list[float]
    winners: list[int]
    truncated: bool
    reason: str
    standings: list[Standing]


class Lesson(TypedDict):
    """At a tutorial table, what the learner is taught about the decision they face: which of
    their first decisions it is (``number`` of ``lessons``) and the game's explanation of it in
    plain words (``coach``: card texts as the game writes them, rule ids in parentheses; null
    where there is nothing to explain). After the lessons ``number`` is null and ``coach`` says
    the learner plays on their own now."""

    number: int | None
    lessons: int
    coach: str | None


class SeatMessage(TypedDict):
    """Everything a seat (or a spectator, ``seat`` null) is sent: made from that seat's view and
    the table's public facts. ``log`` holds the events from ``log_from`` on, and ``story`` the
    lines the seat was told, in the game's words, about the events from ``story_from`` on."""

    table: str
    game: str
    players: int
    seat: int | None
    version: int
    status: Status
    to_move: list[int]
    legal_actions: list[LegalAction]
    observation: Any
    log_from: int
    log: list[LogEvent]
    story_from: int
    story: list[StoryLine]
    result: Result | None
    seats: list[SeatPublic]
    notices: list[Notice]
    mode: Mode
    variant: list[str]
    """The table's options that are not the rules as written, in words (empty: as written)."""
    hints: bool
    rematch_id: str | None
    tutorial: bool
    rated: bool
    """Its result moves its players' ratings."""
    lesson: NotRequired[Lesson]
    """At a tutorial table, in the learner's message only, while the learner is to move."""
    deal: Deal
    """The commitment to the table's seed, and the seed once it may be known."""


class MoveAnswer(TypedDict):
    """An applied move: the event ``index`` it became, and the table's ``version`` after it and
    the chance events it set off. A retry of the move gets the very same answer."""

    table: str
    seat: int
    action: str
    index: int
    version: int


class Budget(TypedDict, total=False):
    iterations: int
    seconds: float


class ActionEstimate(TypedDict):
    """One action's estimated win chance for the deciding seat, with its 95% interval."""

    action: str
    id: int
    mean: float
    low: float
    high: float
    visits: int


class Hint(TypedDict):
    table: str
    seat: int
    version: int
    budget: Budget
    actions: list[ActionEstimate]
    """Every legal action, best first."""


class SeatView(TypedDict):
    seat: int | None
    observation: Any


class ReplayStep(TypedDict):
    """A finished game as it stood after ``step`` events, from a seat's view or every seat's."""

    table: str
    game: str
    players: int
    step: int
    steps: int
    seat: ReplaySeat
    to_move: list[int]
    views: list[SeatView]
    log: list[LogEvent]
    story: list[StoryLine]
    """The lines told about the events up to the step: to the seat, to a spectator, or (with
    ``all``) every line told to anyone, each once."""
    told_to: NotRequired[list[list[int]]]
    """With ``all``: the seats each line of ``story`` was told to (every seat: ``[]``)."""
    result: Result | None
    seats: list[SeatPublic]
    deal: Deal
    """The table's deal: its seed revealed (the game is over)."""


class OptionInfo(TypedDict):
    """A game's or a bot's option: ``label`` and ``about`` are for a person (no rule ids);
    ``name`` (the key a request sends), ``help`` (with the rule ids) and ``allowed`` are the
    details for those who want them."""

    name: str
    default: OptionValue
    allowed: str
    help: str
    label: str
    """The option's name for a person (``Target score``)."""
    about: str
    """What the option does, in one line, in the game's words."""
    choices: NotRequired[list[str]]
    """The values a text option allows, when it names them."""
    choice_labels: NotRequired[list[str]]
    """A person's name for each of ``choices``, in the same order."""
    unofficial: NotRequired[bool]
    minimum: NotRequired[float]
    """The least value a number option takes."""
    maximum: NotRequired[float]
    """The greatest value a number option takes (a search bot's budget: this server's cap)."""


class BotInfo(TypedDict):
    name: str
    summary: str
    options: list[OptionInfo]


class LongestGame(TypedDict):
    """The longest game a player count can last, with the default options."""

    players: int
    decisions: int
    chance: int
    events: int


class RecommendedVariant(TypedDict):
    """The variant Courtly recommends at a player count where the rules as written go wrong
    there: the form pre-selects its options and shows ``reason``."""

    players: int
    options: dict[str, OptionValue]
    name: str
    """The variant's name for a person (``the shorter track (20 spaces)``)."""
    reason: str
    """Why, in one line with the measured figure."""


class GameInfo(TypedDict):
    """A game of the catalogue (``courtly games --json``), with the bots a seat can be given."""

    id: str
    title: str
    players: list[int]
    official_players: list[int]
    default_players: int
    summary: str
    simultaneous: bool
    hidden_information: bool
    teams: bool
    options: list[OptionInfo]
    agents: list[str]
    default_bot: str
    longest_game: list[LongestGame] | None
    bots: list[BotInfo]
    tutorial: bool
    """Whether the game teaches a tutorial (``POST /api/tutorials``)."""
    recommended: list[RecommendedVariant]
    """Courtly's variants by player count (empty for most games); the engine's defaults stay
    the rules as written."""


class SeatTitles(TypedDict):
    """What each seat of a game is, at a player count and options: what the form that creates
    a table shows beside each seat."""

    game: str
    players: int
    titles: list[str]
    """Each seat's title in words (``Ostrogoth King``), empty where every seat plays the same
    part."""
