// The server's REST API (docs/server.md) and the seat tokens this browser holds.

import type { components } from "./protocol";

// Every body and message of the wire protocol, as the server declares it (courtly/web/protocol.py):
// generated into protocol.d.ts from the server's OpenAPI schema by `make protocol`, never written
// by hand here.
type Schemas = components["schemas"];

export type OptionInfo = Schemas["OptionInfo"];
export type BotInfo = Schemas["BotInfo"];
export type GameInfo = Schemas["GameInfo"];
export type RecommendedVariant = Schemas["RecommendedVariant"];
/** What each seat is at a player count and options ("Ostrogoth King"; "" where all are alike). */
export type SeatTitles = Schemas["SeatTitles"];
export type Rules = Schemas["Rules"];
export type SeatPublic = Schemas["SeatPublic"];
export type Clock = Schemas["Clock"];
/** A table as the lobby lists it; `to_move` is public in every view (empty unless playing). */
export type TableSummary = Schemas["TableSummary"];
export type Deal = Schemas["Deal"];
export type SeatToken = Schemas["SeatToken"];
/** A legal action; `caution`: the game's warning before a move that throws the game away. */
export type LegalAction = Schemas["LegalAction"];
export type Notice = Schemas["Notice"];
/** How a finished game ended: the reason, each seat's standing (place, score, note), returns. */
export type Result = Schemas["Result"];
export type Standing = Schemas["Standing"];
/** What the server sends a seat (or a spectator): `seat_message` in courtly/web/seat_messages.py. */
export type SeatMessage = Schemas["SeatMessage"];
/** At a tutorial table, the learner's lesson about the decision they face (their message only). */
export type Lesson = Schemas["Lesson"];
export type LogEvent = SeatMessage["log"][number];
export type MoveAnswer = Schemas["MoveAnswer"];
/** A finished game at one step (`GET /api/tables/{id}/replay`). */
export type ReplayStep = Schemas["ReplayStep"];
export type GameRecord = Schemas["GameRecord"];
/** One action's estimated win chance for the deciding seat, with its 95% interval. */
export type ActionEstimate = Schemas["ActionEstimate"];
export type Hint = Schemas["Hint"];
/** A finished game's review (`courtly review`'s JSON, format courtly-review/1). */
export type Review = Schemas["Review"];
export type ReviewJob = Schemas["ReviewJob"];
/** Every refused request's body: `detail` says why (a stale move: the table's `version`). */
export type Refusal = Schemas["Refusal"];
export type OptionValue = string | number | boolean;
export type SeatRequest = Schemas["SeatRequest"];
/** The signed-in person, and the token their state-changing requests repeat (CSRF). */
export type AccountInfo = Schemas["AccountInfo"];
export type HeldSeat = Schemas["HeldSeat"];
export type SeatsAttached = Schemas["SeatsAttached"];
export type AdminAct = Schemas["AdminAct"];
export type CreateRequest = Schemas["CreateTable"];
export type PlayNowRequest = Schemas["PlayNowRequest"];
export type PlayNowTicket = Schemas["PlayNowTicket"];
export type PlayNowStatus = Schemas["PlayNowStatus"];
export type PlayNowWaiting = Schemas["PlayNowWaiting"];

/** What a page sends on a table's WebSocket: the hello first, then a seat's moves. */
export type ClientMessage = Schemas["ClientMessage"];
export type Hello = Schemas["Hello"];
export type MoveMessage = Schemas["MoveMessage"];
/** What the server sends on a table's WebSocket. */
export type ServerMessage = Schemas["ServerMessage"];
export type ViewMessage = Schemas["ViewMessage"];
export type ErrorMessage = Schemas["ErrorMessage"];
export type AnswerMessage = Schemas["AnswerMessage"];
export type RefusedMessage = Schemas["RefusedMessage"];
/** A line said at a table; its `sender` is what a person mutes. */
export type ChatLine = Schemas["ChatLine"];
export type ChatChannel = ChatLine["channel"];
export type ChatMessage = Schemas["ChatMessage"];
export type ChatHistory = Schemas["ChatHistory"];

/** A refused request: the server's `detail`, and its status (0: no answer at all). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** A body that is JSON text already, sent as it is: a kept game's record, whose 64-bit seed a
 * JavaScript number would round. */
export class JsonText {
  constructor(readonly text: string) {}
}

export async function request<T>(
  method: string,
  path: string,
  body?: unknown,
  token?: string,
  retried = false,
): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  // The session's cookie goes with every request of this origin: a change it authenticates
  // repeats the session's CSRF token (another site cannot read it).
  if (method !== "GET" && csrfToken) headers["X-Courtly-CSRF"] = csrfToken;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : body instanceof JsonText ? body.text : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "the server could not be reached; check your connection");
  }
  let data: unknown = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const fields = (data && typeof data === "object" ? data : {}) as Record<string, unknown>;
    const detail =
      typeof fields.detail === "string" ? fields.detail : `the server answered ${response.status}`;
    if (response.status === 403 && detail.includes("X-Courtly-CSRF") && !retried) {
      // Signed in meanwhile in another tab: this page learns the session's token, once.
      const account = await request<AccountInfo>("GET", "/api/account").catch(() => null);
      if (account) {
        setCsrf(account.csrf);
        return request<T>(method, path, body, token, true);
      }
    }
    throw new ApiError(response.status, detail, fields);
  }
  return data as T;
}

/** The CSRF token of this browser's session ("" for a guest). */
let csrfToken = "";

export function setCsrf(token: string): void {
  csrfToken = token;
}

/** The "token" of a seat that belongs to the signed-in person: no bearer token is sent, the
 * session's cookie proves the seat (on REST and on the WebSocket). */
export const BY_ACCOUNT = "";

export const api = {
  games: () => request<GameInfo[]>("GET", "/api/games"),
  seatTitles: (game: string, players: number, options: Record<string, OptionValue>) =>
    request<SeatTitles>("POST", `/api/games/${encodeURIComponent(game)}/seats`, { players, options }),
  tables: (status: "open" | "playing" | "over", limit = 100) =>
    request<TableSummary[]>("GET", `/api/tables?status=${status}&limit=${limit}`),
  table: (id: string) => request<TableSummary>("GET", `/api/tables/${encodeURIComponent(id)}`),
  create: (body: CreateRequest) => request<TableSummary>("POST", "/api/tables", body),
  /** A tutorial table of `game`: the learner seated (their token, shown once), bots at the rest. */
  tutorial: (game: string, name: string) => request<SeatToken>("POST", "/api/tutorials", { game, name }),
  join: (id: string, seat: number, name: string, hotSeat = false) =>
    request<SeatToken>(
      "POST",
      `/api/tables/${encodeURIComponent(id)}/seats/${seat}/join`,
      hotSeat ? { name, hot_seat: true } : { name },
    ),
  reclaim: (id: string, seat: number, token: string) =>
    request<TableSummary>(
      "POST",
      `/api/tables/${encodeURIComponent(id)}/seats/${seat}/reclaim`,
      undefined,
      token,
    ),
  move: (id: string, seat: number, action: number | string, version: number, token: string) =>
    request<MoveAnswer>(
      "POST",
      `/api/tables/${encodeURIComponent(id)}/moves`,
      { seat, action, version },
      token,
    ),
  rules: (game: string) =>
    request<Rules>(
      "GET",
      `/api/games/${encodeURIComponent(game)}/rules`,
    ),
  replay: (id: string, step: number | null, seat: number | "spectator" | "all") =>
    request<ReplayStep>(
      "GET",
      `/api/tables/${encodeURIComponent(id)}/replay?seat=${seat}${step === null ? "" : `&step=${step}`}`,
    ),
  hint: (id: string, seat: number, version: number, token: string) =>
    request<Hint>("POST", `/api/tables/${encodeURIComponent(id)}/hint`, { seat, version }, token),
  startReview: (id: string) =>
    request<ReviewJob>("POST", `/api/tables/${encodeURIComponent(id)}/review`),
  review: (id: string) => request<ReviewJob>("GET", `/api/tables/${encodeURIComponent(id)}/review`),
  account: () => request<AccountInfo>("GET", "/api/account"),
  signUp: (name: string, password: string, seats: HeldSeat[]) =>
    request<AccountInfo>("POST", "/api/account", { name, password, seats }),
  signIn: (name: string, password: string, seats: HeldSeat[]) =>
    request<AccountInfo>("POST", "/api/account/session", { name, password, seats }),
  signOut: () => request<{ ended: number }>("DELETE", "/api/account/session"),
  signOutEverywhere: () => request<{ ended: number }>("DELETE", "/api/account/sessions"),
  changePassword: (current: string, next: string) =>
    request<{ ended: number }>("PUT", "/api/account/password", { current, new: next }),
  deleteAccount: (password: string) => request<{ ended: number }>("DELETE", "/api/account", { password }),
  attachSeats: (seats: HeldSeat[]) => request<SeatsAttached>("POST", "/api/account/seats", { seats }),
  mySeats: (id: string) =>
    request<{ table: string; seats: number[] }>("GET", `/api/tables/${encodeURIComponent(id)}/seats/mine`),
  adminClose: (id: string, reason: string) =>
    request<AdminAct>("POST", `/api/admin/tables/${encodeURIComponent(id)}/close`, { reason }),
  adminHideName: (name: string, reason: string) =>
    request<AdminAct>("POST", `/api/admin/accounts/${encodeURIComponent(name)}/hide-name`, { reason }),
  adminDisable: (name: string, disabled: boolean, reason: string) =>
    request<AdminAct>("POST", `/api/admin/accounts/${encodeURIComponent(name)}/disable`, { disabled, reason }),
  adminActs: () => request<AdminAct[]>("GET", "/api/admin/acts"),
  chat: (id: string, channel: ChatChannel) =>
    request<ChatHistory>("GET", `/api/tables/${encodeURIComponent(id)}/chat?channel=${channel}`),
  /** Say a line: as a seat (its token, or the signed-in person's cookie) in the players'
   * channel, or signed in in the spectators' channel. */
  say: (id: string, channel: ChatChannel, text: string, seat: number | null, token: string | null) =>
    request<ChatLine>(
      "POST",
      `/api/tables/${encodeURIComponent(id)}/chat`,
      seat === null ? { channel, text } : { channel, text, seat },
      token ?? undefined,
    ),
  /** The senders the signed-in person mutes, kept with their account. */
  muted: () => request<{ muted: string[] }>("GET", "/api/account/muted"),
  setMuted: (muted: string[]) => request<{ muted: string[] }>("PUT", "/api/account/muted", { muted }),
  hideLine: (line: number) => request<AdminAct>("POST", `/api/admin/chat/${line}/hide`, {}),
  rematch: (id: string, seat: number, token: string) =>
    request<TableSummary>(
      "POST",
      `/api/tables/${encodeURIComponent(id)}/rematch?seat=${seat}`,
      undefined,
      token,
    ),
  // Play now: a place in the queue, proved by its ticket (which becomes the seat's token).
  playNow: (body: PlayNowRequest) => request<PlayNowTicket>("POST", "/api/play-now", body),
  playNowWait: (ticket: string) => request<PlayNowStatus>("POST", "/api/play-now/wait", undefined, ticket),
  playNowLeave: (ticket: string) => request<PlayNowStatus>("DELETE", "/api/play-now", undefined, ticket),
  playNowWaiting: () => request<PlayNowWaiting[]>("GET", "/api/play-now/waiting"),
};

// Tokens are secrets: kept in this browser only (localStorage), one per table and seat, and sent
// in a header or the WebSocket's first message, never in a URL.
const tokenKey = (table: string, seat: number) => `courtly.token.${table}.${seat}`;

const heldInMemory = new Map<string, string>();

export function savedToken(table: string, seat: number): string | null {
  const key = tokenKey(table, seat);
  try {
    return localStorage.getItem(key) ?? heldInMemory.get(key) ?? null;
  } catch {
    return heldInMemory.get(key) ?? null;
  }
}

/** Every seat this browser holds a token of (sent at sign-up and sign-in: they become the
 * account's). */
export function heldSeats(): HeldSeat[] {
  const held: HeldSeat[] = [];
  const seen = new Set<string>();
  const add = (key: string, token: string | null) => {
    const match = /^courtly\.token\.(.+)\.(\d+)$/.exec(key);
    if (!match || !token || seen.has(key) || held.length >= 100) return;
    seen.add(key);
    held.push({ table: match[1], seat: Number(match[2]), token });
  };
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key) add(key, localStorage.getItem(key));
    }
  } catch {
    // Storage refused: the seats held in memory alone.
  }
  for (const [key, token] of heldInMemory) add(key, token);
  return held;
}

export function saveToken(table: string, seat: number, token: string): void {
  const key = tokenKey(table, seat);
  heldInMemory.set(key, token);
  try {
    localStorage.setItem(key, token);
  } catch {
    // Storage refused (private mode): the seat works until the page is closed.
  }
}

export function savedName(): string {
  try {
    return localStorage.getItem("courtly.name") ?? "";
  } catch {
    return "";
  }
}

export function saveName(name: string): void {
  try {
    localStorage.setItem("courtly.name", name);
  } catch {
    // as above
  }
}

// ---------------------------------------------------------------------------------- people's pages
// Ratings, profiles and My games (docs/server.md, "Ratings, profiles and My games").

/** A person's page: games played and won, recent games, ratings and their history, reviews. */
export type Profile = Schemas["Profile"];
export type Rating = Schemas["Rating"];
export type RatingHistory = Schemas["RatingHistory"];
export type Leaderboard = Schemas["Leaderboard"];
/** One of a person's tables, as My games and a profile's recent games list it. */
export type PersonGame = Schemas["PersonGame"];
export type MyGames = Schemas["MyGames"];

export const people = {
  profile: (name: string) => request<Profile>("GET", `/api/people/${encodeURIComponent(name)}`),
  leaderboard: (game: string, players: number) =>
    request<Leaderboard>("GET", `/api/leaderboards/${encodeURIComponent(game)}?players=${players}`),
  /** The signed-in person's tables (an ApiError 401 for a guest). */
  myGames: (finished = 20) => request<MyGames>("GET", `/api/account/tables?finished=${finished}`),
  /** A game played offline, its record (JSON text) kept as a finished casual game of theirs. */
  uploadOfflineGame: (record: string) =>
    request<TableSummary>("POST", "/api/account/offline-games", new JsonText(record)),
};

export type Invitation = Schemas["Invitation"];
export type Invitations = Schemas["Invitations"];
export type AcceptedInvitation = Schemas["AcceptedInvitation"];
export type EmailSettingsInfo = Schemas["EmailSettingsInfo"];

/** Invitations to a seat, and the turn e-mails' settings (signed in: the cookie and CSRF). */
export const together = {
  invite: (table: string, seat: number, name: string) =>
    request<Invitation>("POST", `/api/tables/${encodeURIComponent(table)}/invitations`, { seat, name }),
  invitations: () => request<Invitations>("GET", "/api/account/invitations"),
  accept: (id: string) => request<AcceptedInvitation>("POST", `/api/invitations/${encodeURIComponent(id)}/accept`, {}),
  /** Declines an invitation to you, or withdraws one you sent. */
  decline: (id: string) => request<Invitation>("POST", `/api/invitations/${encodeURIComponent(id)}/decline`, {}),
  email: () => request<EmailSettingsInfo>("GET", "/api/account/email"),
  setEmail: (address: string, after: number) =>
    request<EmailSettingsInfo>("PUT", "/api/account/email", { address, after }),
};
