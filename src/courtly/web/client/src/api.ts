// The server's REST API (docs/server.md) and the seat tokens this browser holds.

export interface OptionInfo {
  name: string;
  default: string | number | boolean;
  allowed: string;
  help: string;
  unofficial?: boolean;
}

export interface BotInfo {
  name: string;
  summary: string;
  options: OptionInfo[];
}

export interface GameInfo {
  id: string;
  title: string;
  players: number[];
  official_players: number[];
  default_players: number;
  summary: string;
  simultaneous: boolean;
  hidden_information: boolean;
  teams: boolean;
  options: OptionInfo[];
  default_bot: string;
  bots: BotInfo[];
}

export interface SeatPublic {
  seat: number;
  kind: "person" | "bot";
  name: string;
  bot: string | null;
  taken: boolean;
  bot_control: boolean;
  clock: number | null;
  clock_running: boolean;
}

export interface Clock {
  initial: number;
  increment: number;
  per_move: number;
  away: number;
}

export interface TableSummary {
  id: string;
  game: string;
  title: string;
  players: number;
  options: Record<string, unknown>;
  mode: "realtime" | "turn-based";
  clock: Clock;
  status: "open" | "playing" | "over";
  version: number;
  /** The seats to move (public in every view); empty unless playing. */
  to_move: number[];
  seats: SeatPublic[];
  free_seats: number[];
  created_at: number;
  rematch_of: string | null;
  rematch_id: string | null;
}

export interface LegalAction {
  id: number;
  text: string;
  /** The game's warning before a legal move that throws the game away: confirm first. */
  caution?: string;
}

export type LogEvent = [string, string];

export interface Notice {
  text: string;
  [key: string]: unknown;
}

export interface Result {
  returns: number[];
  winners: number[];
  truncated: boolean;
}

/** What the server sends a seat (or a spectator): `seat_message` in courtly/web/tables.py. */
export interface SeatMessage {
  table: string;
  game: string;
  players: number;
  seat: number | null;
  version: number;
  status: "open" | "playing" | "over";
  to_move: number[];
  legal_actions: LegalAction[];
  observation: unknown;
  log_from: number;
  log: LogEvent[];
  result: Result | null;
  seats: SeatPublic[];
  notices: Notice[];
  mode: string;
  hints: boolean;
  rematch_id: string | null;
}

/** A finished game at one step (`GET /api/tables/{id}/replay`). */
export interface ReplayStep {
  table: string;
  game: string;
  players: number;
  step: number;
  steps: number;
  seat: number | "spectator" | "all";
  to_move: number[];
  views: { seat: number | null; observation: unknown }[];
  log: LogEvent[];
  result: Result | null;
  seats: SeatPublic[];
}

/** One action's estimated win chance for the deciding seat, with its 95% interval. */
export interface ActionEstimate {
  action: string;
  id: number;
  mean: number;
  low: number;
  high: number;
  visits: number;
}

export interface Hint {
  table: string;
  seat: number;
  version: number;
  budget: { iterations?: number; seconds?: number };
  /** Every legal action, best first. */
  actions: ActionEstimate[];
}

/** A finished game's review (`courtly review`'s JSON, format courtly-review/1). */
export interface Review {
  format: string;
  game: string;
  players: number;
  agents: string[];
  returns: number[];
  events: number;
  reviewed_seats: string[];
  budget: { iterations?: number; seconds?: number };
  thresholds: Record<string, number>;
  summaries: {
    seat: string;
    agent: string;
    decisions: number;
    accuracy: number | null;
    mean_loss: number | null;
    errors: Record<string, number>;
    luck: number;
    luck_stderr: number;
    result: number | null;
    luck_adjusted_result: number | null;
  }[];
  decisions: {
    index: number;
    seat: string;
    chosen: ActionEstimate;
    best: ActionEstimate;
    loss: number;
    label: "inaccuracy" | "mistake" | "blunder" | null;
    accuracy: number;
    actions: ActionEstimate[];
  }[];
  chance: {
    first: number;
    last: number;
    outcomes: string[];
    luck: Record<string, number>;
    before: Record<string, number>;
    after: Record<string, number>;
  }[];
  win_chance: Record<string, [number, number][]>;
}

export interface ReviewJob {
  table: string;
  status: "queued" | "running" | "done" | "failed";
  done: number;
  total: number;
  budget: { iterations?: number };
  review?: Review;
  detail?: string;
}

export type OptionValue = string | number | boolean;

export interface SeatRequest {
  kind: "person" | "bot";
  name?: string;
  bot?: string;
  options?: Record<string, OptionValue>;
}

export interface CreateRequest {
  game: string;
  players: number;
  options: Record<string, OptionValue>;
  seats: SeatRequest[];
  mode: "realtime" | "turn-based";
  clock: Clock;
  seed?: number;
  /** Whether a person to move may ask for a hint (default: yes). */
  hints?: boolean;
}

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

async function request<T>(
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
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
    throw new ApiError(response.status, detail, fields);
  }
  return data as T;
}

export const api = {
  games: () => request<GameInfo[]>("GET", "/api/games"),
  tables: (status: "open" | "playing" | "over", limit = 100) =>
    request<TableSummary[]>("GET", `/api/tables?status=${status}&limit=${limit}`),
  table: (id: string) => request<TableSummary>("GET", `/api/tables/${encodeURIComponent(id)}`),
  create: (body: CreateRequest) => request<TableSummary>("POST", "/api/tables", body),
  join: (id: string, seat: number, name: string) =>
    request<{ table: string; seat: number; token: string }>(
      "POST",
      `/api/tables/${encodeURIComponent(id)}/seats/${seat}/join`,
      { name },
    ),
  reclaim: (id: string, seat: number, token: string) =>
    request<TableSummary>(
      "POST",
      `/api/tables/${encodeURIComponent(id)}/seats/${seat}/reclaim`,
      undefined,
      token,
    ),
  move: (id: string, seat: number, action: number | string, version: number, token: string) =>
    request<{ index: number; version: number }>(
      "POST",
      `/api/tables/${encodeURIComponent(id)}/moves`,
      { seat, action, version },
      token,
    ),
  rules: (game: string) =>
    request<{ game: string; title: string; rules: string }>(
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
  rematch: (id: string, seat: number, token: string) =>
    request<TableSummary>(
      "POST",
      `/api/tables/${encodeURIComponent(id)}/rematch?seat=${seat}`,
      undefined,
      token,
    ),
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
