"""The wire protocol: every body the server takes or sends, and every WebSocket message, declared
once. The OpenAPI schema (``/openapi.json``) is made from these declarations, and the browser
client's TypeScript types are generated from that schema (``make protocol``).

What a client sends is a pydantic model, validated strictly: JSON ``true`` is no seat, id or
count, nor ``"3"`` a number. What the server sends is a ``TypedDict``: the dicts the server builds
are checked against it by mypy, and sent as they are, with no validation or copy at run time (a
view is built and sent for every seat after every move).

A refused request, REST or WebSocket, is answered with :class:`Refusal`'s fields, made by
:func:`refusal` alone.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired, Self

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    model_validator,
)
from pydantic_core import PydanticCustomError
from typing_extensions import TypedDict

# What a seat is sent needs no pydantic: declared in .messages, which the browser's engine uses.
from .messages import (  # noqa: F401 (re-exported: every body is known here)
    ActionEstimate,
    BotInfo,
    Budget,
    Clock,
    Deal,
    GameInfo,
    Hint,
    LegalAction,
    Lesson,
    LogEvent,
    LongestGame,
    Mode,
    MoveAnswer,
    Notice,
    OptionInfo,
    OptionValue,
    RecommendedVariant,
    RecordDeal,
    Refusal,
    ReplaySeat,
    ReplayStep,
    Result,
    SeatKind,
    SeatMessage,
    SeatPublic,
    SeatTitles,
    SeatView,
    Standing,
    Status,
    StoryLine,
    TableSummary,
    refusal,
)
from .names import MAX_RAW_NAME, BadName, clean_name

# ---------------------------------------------------------------------------------- requests

MAX_COUNT = 2**31 - 1
"""The largest version or event count a client may send: far beyond the longest game, and within
every integer type it meets on its way (orjson's, the databases')."""


def _named(text: str) -> str:
    try:
        return clean_name(text)
    except BadName as error:
        # A custom error: the refusal reads "name: <why>", not pydantic's "Value error, ...".
        raise PydanticCustomError("name", str(error)) from None


PersonName = Annotated[
    str,
    Field(
        max_length=MAX_RAW_NAME,
        description="a name shown to everyone: cleaned (NFC, white space runs one space, "
        "trimmed, no control or invisible characters) and at most 64 characters",
    ),
    AfterValidator(_named),
]
"""A name a person gives, cleaned by :func:`courtly.web.names.clean_name` (or refused, 422)."""


class Strict(BaseModel):
    # strict: JSON true is no seat, id or count, nor "3" a number (lax mode would take them).
    model_config = ConfigDict(extra="forbid", strict=True)


class SeatRequest(Strict):
    kind: SeatKind = "person"
    name: PersonName = ""
    bot: str | None = Field(default=None, max_length=64, description="the bot's name (bots only)")
    options: dict[str, OptionValue] = Field(default_factory=dict, description="the bot's options")

    @model_validator(mode="after")
    def _person_has_no_bot(self) -> Self:
        # Refused rather than ignored: whoever sent it meant something the table would not do.
        if self.kind == "person" and (self.bot is not None or self.options):
            raise PydanticCustomError(
                "person_bot",
                "a person's seat takes no bot nor bot options (the game's bot plays for a person "
                "who is away); give them to a seat of kind bot",
            )
        return self


class ClockRequest(Strict):
    initial: float = Field(
        default=0, ge=0, le=366 * 86400, description="realtime: seconds per seat"
    )
    increment: float = Field(
        default=0, ge=0, le=86400, description="realtime: seconds added per move"
    )
    per_move: float = Field(
        default=0, ge=0, le=366 * 86400, description="turn-based: seconds per move"
    )
    away: float = Field(
        default=0, ge=0, le=366 * 86400, description="seconds a person to move may be disconnected"
    )


class CreateTable(Strict):
    game: str = Field(max_length=64)
    players: int | None = Field(default=None, ge=1, le=16)
    options: dict[str, OptionValue] = Field(default_factory=dict)
    seats: list[SeatRequest] = Field(max_length=16)
    mode: Mode = "realtime"
    clock: ClockRequest = Field(default_factory=lambda: ClockRequest())
    seed: int | None = Field(
        default=None,
        ge=0,
        lt=2**62,
        description="a chosen deal (tests, a known deal): announced to everyone, and shown "
        "(deal.chosen); without it the server draws a secret seed and commits to it",
    )
    hints: bool = True
    rated: bool = Field(
        default=False,
        description="the result moves the players' ratings: people only (no bots), a secret "
        "deal, seats taken by signed-in people, one seat each",
    )


class CreateTutorial(Strict):
    game: str = Field(max_length=64, description="the game to learn")
    name: PersonName = ""


class JoinSeat(Strict):
    name: PersonName = ""
    hot_seat: bool = Field(
        default=False,
        description="this device plays several seats of the table: a signed-in person may "
        "then hold more than one",
    )


class MoveRequest(Strict):
    seat: int = Field(ge=0, le=15)
    action: str | int = Field(description="the action's text or id")
    version: int = Field(ge=0, le=MAX_COUNT, description="the version the move was chosen at")


class HintRequest(Strict):
    seat: int = Field(ge=0, le=15)
    version: int = Field(
        ge=0, le=MAX_COUNT, description="the version of the view the seat is looking at"
    )


# ---------------------------------------------------------------------------------- answers


class Rules(TypedDict):
    """A game's rules: the short summary ``courtly rules`` prints, and the project's full rules
    document (``docs/rules/<game>.md``, Markdown), which ``document`` is null without."""

    game: str
    title: str
    rules: str
    document: str | None


class SetupRequest(Strict):
    players: int | None = Field(default=None, ge=1, le=16)
    options: dict[str, OptionValue] = Field(default_factory=dict)


class SeatToken(TypedDict):
    """A joined seat's secret token, shown once."""

    table: str
    seat: int
    token: str


class GameRecord(TypedDict):
    """A finished game's record (format ``courtly-game/1``: what ``courtly replay`` reads)."""

    format: str
    game_id: int
    game: str
    players: int
    options: dict[str, OptionValue]
    seed: NotRequired[int]
    deal: NotRequired[RecordDeal]
    """The deal the table committed to, which ``seed`` must match (``courtly replay
    --verify``)."""
    seats: NotRequired[list[str]]
    returns: NotRequired[list[float]]
    truncated: NotRequired[bool]
    length: int
    history: list[LogEvent]


class ReviewSummary(TypedDict):
    seat: str
    agent: str
    decisions: int
    accuracy: float | None
    mean_loss: float | None
    errors: dict[str, int]
    luck: float
    luck_stderr: float
    result: float | None
    luck_adjusted_result: float | None


class ReviewedDecision(TypedDict):
    index: int
    seat: str
    chosen: ActionEstimate
    best: ActionEstimate
    loss: float
    label: Literal["inaccuracy", "mistake", "blunder"] | None
    accuracy: float
    actions: list[ActionEstimate]


class ChanceStep(TypedDict):
    first: int
    last: int
    outcomes: list[str]
    luck: dict[str, float]
    before: dict[str, float]
    after: dict[str, float]


WinChance = Annotated[
    list[float], Field(min_length=2, max_length=2, description="an event's index, and the chance")
]


class Review(TypedDict):
    """A finished game's review (``courtly review``'s JSON, format ``courtly-review/1``)."""

    format: str
    game: str
    players: int
    options: dict[str, OptionValue]
    game_id: int
    seed: int | None
    agents: list[str]
    returns: list[float]
    events: int
    reviewed_seats: list[str]
    budget: Budget
    review_seed: int
    thresholds: dict[str, float]
    summaries: list[ReviewSummary]
    decisions: list[ReviewedDecision]
    chance: list[ChanceStep]
    win_chance: dict[str, list[WinChance]]


class ReviewJob(TypedDict):
    """A review being made (``done`` of ``total`` searches), made (with ``review``), or failed
    (``detail`` says why: POST again to try again)."""

    table: str
    status: Literal["queued", "running", "done", "failed"]
    done: int
    total: int
    budget: Budget
    review: NotRequired[Review]
    detail: NotRequired[str]


# ---------------------------------------------------------------------------------- WebSocket


class Hello(BaseModel):
    """The first message on a table's WebSocket: who is watching (``seat`` null: a spectator),
    the seat's token, and how many log events the connection holds already."""

    model_config = ConfigDict(strict=True)  # other fields are ignored, as they always were
    seat: int | None = None
    token: str | None = None
    since: int = Field(default=0, ge=0, le=MAX_COUNT)
    chat: bool = Field(
        default=False,
        description="send the table's chat on this connection too (ChatMessage)",
    )


class MoveMessage(BaseModel):
    """A move sent on the seat's WebSocket: answered there as ``POST .../moves`` would be, with
    ``ref`` sent back."""

    model_config = ConfigDict(extra="forbid", strict=True)
    type: Literal["move"]
    action: str | int = Field(description="the action's text or id")
    version: int = Field(ge=0, le=MAX_COUNT, description="the version the move was chosen at")
    ref: JsonValue = None


class ViewMessage(SeatMessage):
    """The seat's view, sent first and again after every change of the table."""

    type: Literal["view"]


class ErrorMessage(Refusal):
    """The connection is refused (a bad first message, a wrong token, a seat given up); the
    socket is closed next, with code 4000 + the REST status (4400 for a bad first message)."""

    type: Literal["error"]


class AnswerMessage(MoveAnswer):
    """A move sent on the socket was applied."""

    type: Literal["answer"]
    ref: JsonValue


class RefusedMessage(Refusal):
    """A move sent on the socket was refused, with the REST status and refusal."""

    type: Literal["refused"]
    ref: JsonValue
    status: int


# ---------------------------------------------------------------------------------- people's
# ratings, profiles and tables


class Rating(TypedDict):
    """A person's OpenSkill rating in one pool of a game (``players`` 0: every player count):
    ``rating`` is the one shown, ``mu - 3 sigma``."""

    game: str
    players: int
    mu: float
    sigma: float
    rating: float
    games: int
    wins: float
    """Rated games won; a shared win counts its share."""


class RatingStep(TypedDict):
    """A rating after one rated table."""

    table: str
    at: float
    mu: float
    sigma: float
    rating: float


class RatingHistory(TypedDict):
    game: str
    players: int
    steps: list[RatingStep]
    """Oldest first."""


class GamesPlayed(TypedDict):
    game: str
    title: str
    played: int
    """Finished tables."""
    won: int
    """Finished first, alone or shared."""
    rated: int


class PlayerSeat(TypedDict):
    """A seat of a person's table, as everyone may know it."""

    seat: int
    name: str
    kind: SeatKind
    place: int | None
    """Where it finished (1: won), once the game is over."""
    clock: float | None
    """Seconds left on its clock (None: no clock)."""


class PersonGame(TypedDict):
    """One of a person's tables: in a profile's recent games, or in My games."""

    id: str
    game: str
    title: str
    players: int
    status: Status
    rated: bool
    updated_at: float
    seats: list[PlayerSeat]
    mine: list[int]
    """The person's seats."""
    to_move: list[int]
    """The seats to move (empty unless playing)."""
    your_turn: bool
    time_left: float | None
    """Seconds left on the clock of the seat to move (the person's own when it is their turn;
    None: no clock, or nobody to move)."""


class ReviewFigures(TypedDict):
    """How well a person played one reviewed game (from its stored review)."""

    table: str
    game: str
    at: float
    decisions: int
    mean_loss: float | None
    """Mean win chance lost per decision against the search's best move."""
    accuracy: float | None


class Profile(TypedDict):
    """A person's page: games played per game, recent games, ratings with their history, and
    the figures of their reviewed games."""

    name: str
    since: float
    games: list[GamesPlayed]
    recent: list[PersonGame]
    ratings: list[Rating]
    history: list[RatingHistory]
    reviews: list[ReviewFigures]
    """Oldest first."""


class LeaderboardEntry(TypedDict):
    rank: int
    name: str
    rating: float
    mu: float
    sigma: float
    games: int
    wins: float


class Leaderboard(TypedDict):
    """A game's pool of people, best first, with at least ``min_games`` rated games each."""

    game: str
    title: str
    players: int
    """0: every player count."""
    counts: list[int]
    """The player counts the game is played at (a pool each, besides 0)."""
    min_games: int
    entries: list[LeaderboardEntry]


class MyGames(TypedDict):
    """The signed-in person's tables: their turn first, then in play, open, and the finished
    ones changed last (``finished`` counts them all)."""

    tables: list[PersonGame]
    finished: int


# ---------------------------------------------------------------------------------- chat

MAX_CHAT_LINE = 500
"""Characters a chat line may have, once cleaned."""
MAX_RAW_CHAT_LINE = 4 * MAX_CHAT_LINE
"""Characters a chat line may have as sent, before cleaning."""
ChatChannel = Literal["players", "spectators"]


class ChatLine(TypedDict):
    """A line said at a table: ``sender`` names who said it across tables and pages (what a
    person mutes), ``name`` is the name shown, ``seat`` the seat that said it (null: a
    spectator)."""

    id: int
    channel: ChatChannel
    seat: int | None
    sender: str
    name: str
    text: str
    at: float


class ChatHistory(TypedDict):
    """A table's chat lines in one channel, the oldest first (an administrator's hidden lines
    left out); ``closed`` says why nobody may speak now (null: the chat is open)."""

    table: str
    channel: ChatChannel
    closed: str | None
    lines: list[ChatLine]


class SayRequest(Strict):
    """A line to say: in the players' channel as ``seat`` (its token, or its signed-in person),
    in the spectators' channel as the signed-in person."""

    channel: ChatChannel = "players"
    seat: int | None = Field(default=None, ge=0, le=15)
    text: str = Field(min_length=1, max_length=MAX_RAW_CHAT_LINE)


class HideLine(Strict):
    reason: str = Field(default="", max_length=300, description="why, for the log")


MAX_MUTED = 1000
"""Senders one account may keep muted."""
MuteKey = Annotated[
    str,
    Field(
        pattern=r"^(p[0-9a-f]{16}|[A-Za-z0-9_-]{1,32}/s[0-9]{1,2})$",
        description="a person's sender key (p...), or a guest's seat at one table (table/s0)",
    ),
]


class Muted(Strict):
    """The senders whose lines a person does not want to see, kept with their account."""

    muted: list[MuteKey] = Field(max_length=MAX_MUTED)


class MutedSenders(TypedDict):
    muted: list[str]


class ChatMessage(TypedDict):
    """Chat lines the connection has not had (the players' channel; the spectators' to a
    spectator, and to a seat that asked for them), the ids of lines an administrator hid since,
    and whether the chat is open (``closed``: why not)."""

    type: Literal["chat"]
    lines: list[ChatLine]
    hidden: list[int]
    closed: str | None


class ChatReadMessage(BaseModel):
    """A seat chooses whether it reads the spectators' channel (it does not, at first)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    type: Literal["chat-read"]
    spectators: bool


# ---------------------------------------------------------------------------------- play now

MAX_BOTS_AFTER = 600
"""The longest "fill with bots after" wait, in seconds."""


class PlayNowRequest(Strict):
    """Wait for a table of ``game``: ``players`` seats (0: any count the game has), ``mode``,
    rated (signed-in people only) or casual; ``bots_after``: seconds after which the free seats
    go to bots (the table is then casual; null: wait for people)."""

    game: str = Field(min_length=1, max_length=64)
    players: int = Field(default=0, ge=0, le=16, description="0: any count")
    mode: Mode = "realtime"
    rated: bool = False
    bots_after: int | None = Field(default=None, ge=0, le=MAX_BOTS_AFTER)
    name: PersonName = ""
    """A guest's name at the table (a signed-in person sits under their account's)."""


PlayNowState = Literal["waiting", "seated", "gone"]


class PlayNowStatus(TypedDict):
    """Where a Play now ticket stands: ``waiting`` (``waited`` seconds so far), ``seated`` (at
    ``table``'s ``seat``: the ticket is the seat's token) or ``gone`` (left, or not heard from
    for too long)."""

    state: PlayNowState
    game: str
    players: int
    mode: Mode
    rated: bool
    waited: float
    table: str | None
    seat: int | None


class PlayNowTicket(PlayNowStatus):
    """A new place in the queue: ``ticket`` (shown once) proves it, as ``Authorization: Bearer``
    on the heartbeat and on leaving, and becomes the token of the seat it is given."""

    ticket: str
    heartbeat: float
    """Seconds between heartbeats (``POST /api/play-now/wait``) that keep the place."""


class PlayNowWaiting(TypedDict):
    """How many wait for one kind of table (``players`` 0: any count)."""

    game: str
    players: int
    mode: Mode
    rated: bool
    waiting: int


ClientMessage = Hello | MoveMessage | ChatReadMessage
ServerMessage = ViewMessage | ErrorMessage | AnswerMessage | RefusedMessage | ChatMessage
SOCKET_MESSAGES: dict[str, Any] = {"ClientMessage": ClientMessage, "ServerMessage": ServerMessage}
"""The WebSocket's messages, added to the OpenAPI schema's components under these names (a
WebSocket route is not in OpenAPI)."""


# ---------------------------------------------------------------------------------- people

MIN_PASSWORD = 8
"""Characters a new password must have at least."""
MAX_PASSWORD = 1024
"""Characters a password may have: hashing a longer one is work nobody needs."""


def _account_named(text: str) -> str:
    name = _named(text)
    if not name:
        raise PydanticCustomError("name", "an account needs a name")
    return name


AccountName = Annotated[
    str,
    Field(
        max_length=MAX_RAW_NAME,
        description="the account's name, shown to everyone: cleaned as a seat's name is, at "
        "least one character; no two accounts have names that differ only in case or width",
    ),
    AfterValidator(_account_named),
]
NewPassword = Annotated[
    str,
    Field(
        min_length=MIN_PASSWORD,
        max_length=MAX_PASSWORD,
        description=f"{MIN_PASSWORD} to {MAX_PASSWORD} characters",
    ),
]
GivenPassword = Annotated[str, Field(max_length=MAX_PASSWORD)]


class HeldSeat(Strict):
    """A seat this browser holds as a guest, with its token: attached to the account."""

    table: str = Field(max_length=64)
    seat: int = Field(ge=0, le=15)
    token: str = Field(max_length=200)


class SignUp(Strict):
    name: AccountName
    password: NewPassword
    seats: list[HeldSeat] = Field(
        default_factory=list, max_length=100, description="the guest seats to attach"
    )


class SignIn(Strict):
    name: str = Field(max_length=MAX_RAW_NAME)
    password: GivenPassword
    seats: list[HeldSeat] = Field(
        default_factory=list, max_length=100, description="the guest seats to attach"
    )


class AccountInfo(TypedDict):
    """The signed-in person: ``csrf`` is what every state-changing request made with the
    session's cookie repeats in the ``X-Courtly-CSRF`` header."""

    id: str
    name: str
    admin: bool
    csrf: str


class SignedOut(TypedDict):
    """Sessions ended: this browser's (0 if it held none), or every one of the account's."""

    ended: int


class MySeats(TypedDict):
    """The seats of a table that belong to the signed-in person (found from any device)."""

    table: str
    seats: list[int]


class SeatPlace(TypedDict):
    table: str
    seat: int


class SeatRefused(TypedDict):
    table: str
    seat: int
    detail: str


class SeatsAttached(TypedDict):
    """A guest's seats given to the account, and those refused (with why)."""

    attached: list[SeatPlace]
    refused: list[SeatRefused]


class AttachSeats(Strict):
    seats: list[HeldSeat] = Field(max_length=100)


class ChangePassword(Strict):
    current: GivenPassword = Field(
        default="", description="the password now (none for an account without one)"
    )
    new: NewPassword


class ConfirmPassword(Strict):
    password: GivenPassword = Field(
        default="", description="the account's password (none for an account without one)"
    )


class AdminAct(TypedDict):
    """An administrator's act: ``act`` is ``close-table`` (``target``: the table),
    ``hide-name``, ``disable-account`` or ``enable-account`` (``target``: the account's name)."""

    at: float
    admin: str
    act: str
    target: str
    detail: str


class AdminReason(Strict):
    reason: str = Field(default="", max_length=300, description="why, for the log")


class DisableAccount(AdminReason):
    disabled: bool = True


# ---------------------------------------------------------------------------------- passkeys

Credential = Annotated[
    dict[str, JsonValue],
    Field(
        description="the authenticator's answer, as the browser's PublicKeyCredential.toJSON() "
        "gives it (id, rawId, response, type...)"
    ),
]
BASE64URL = r"^[A-Za-z0-9_-]+$"
"""What an id made of random bytes is written in (a ceremony's, a passkey's)."""
Ceremony = Annotated[
    str,
    Field(
        min_length=1,
        max_length=64,
        pattern=BASE64URL,
        description="the ceremony the options began",
    ),
]


class PasskeySignInStart(Strict):
    name: PersonName | None = Field(
        default=None,
        description="the account whose passkeys may answer (null: any passkey of this server "
        "the authenticator holds; it tells whose)",
    )


class PasskeyAdd(Strict):
    ceremony: Ceremony
    credential: Credential
    label: PersonName = Field(
        default="", description="what the person calls it (empty: passkey 1, 2...)"
    )


class PasskeySignIn(Strict):
    ceremony: Ceremony
    credential: Credential
    seats: list[HeldSeat] = Field(
        default_factory=list, max_length=100, description="the guest seats to attach"
    )


class PasskeyCeremony(TypedDict):
    """A passkey ceremony begun: the options for the browser's ``navigator.credentials``
    (``PublicKeyCredential.parseCreationOptionsFromJSON`` or ``parseRequestOptionsFromJSON``),
    and the ceremony the answer names."""

    ceremony: str
    options: dict[str, Any]


class PasskeyInfo(TypedDict):
    """One of a person's passkeys (``id``: its credential id, base64url)."""

    id: str
    label: str
    created_at: float
    used_at: float | None
    transports: list[str]


# ---------------------------------------------------------------------------------- playing
# together: invitations and turn e-mails

InvitationStatus = Literal["pending", "accepted", "declined", "withdrawn"]


class InviteRequest(Strict):
    """Hold a free seat of an open table for a person, named as they signed up."""

    seat: int = Field(ge=0, le=15)
    name: PersonName


class Invitation(TypedDict):
    """A seat held for an invited person (``invited``) by a person seated at the table."""

    id: str
    table: str
    seat: int
    game: str
    title: str
    invited: str
    inviter: str
    status: InvitationStatus
    at: float


class Invitations(TypedDict):
    """The signed-in person's pending invitations: to them, and by them."""

    received: list[Invitation]
    sent: list[Invitation]


class AcceptedInvitation(TypedDict):
    """The seat taken by accepting: the seat's token (shown once) and the invitation."""

    token: str
    invitation: Invitation


MAX_EMAIL_DELAY = 30 * 86400
"""The longest a person may ask a turn to wait before an e-mail (30 days)."""


class EmailSettings(Strict):
    """Where and when to e-mail a person whose turn waits at a turn-based table: ``address``
    ("" for no e-mails), ``after`` seconds of waiting."""

    address: str = Field(
        default="",
        max_length=254,
        pattern=r"^$|^[^@\s<>,;\"]{1,64}@[^@\s<>,;\"]+\.[^@\s<>,;\"]+$",
        description="an e-mail address, or empty for none",
    )
    after: int = Field(default=3600, ge=60, le=MAX_EMAIL_DELAY, description="seconds waited")


class EmailSettingsInfo(TypedDict):
    """A person's turn e-mail settings, and whether this server sends e-mail at all."""

    address: str
    after: int
    server_sends: bool


class Unsubscribed(TypedDict):
    """The turn e-mails of the link's account are stopped."""

    unsubscribed: bool
