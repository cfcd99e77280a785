// A table played by the engine in this browser, as the table's page sees a table: the same
// views, moves and hints as a server's (table/transport.ts), and its bots moved in the engine's
// worker, one move at a time, so that each move is seen as it is made.
import type { Hint, MoveAnswer, SeatMessage } from "../api";
import type { TableTransport, ViewSource } from "../table/transport";
import type { Engine } from "./engine";

/** How long a bot's move stays the latest before the next bot moves: time to see it. */
const BOT_PACE_MS = 350;

interface Watcher {
  seat: number | null;
  since: () => number;
  onView: (message: SeatMessage) => void;
  onError: (detail: string) => void;
}

export class OfflineTable implements TableTransport, ViewSource {
  readonly online = false;
  readonly views = this;
  /** Its finished game is kept in this browser (offline/records.ts) already. */
  kept = false;
  private watchers = new Set<Watcher>();
  private botsMoving = false;
  private stopped = false;

  constructor(
    private engine: Engine,
    readonly id: string,
    private pace = BOT_PACE_MS,
  ) {}

  watch(
    seat: number | null,
    since: () => number,
    onView: (message: SeatMessage) => void,
    onError: (detail: string) => void,
  ): () => void {
    const watcher = { seat, since, onView, onError };
    this.watchers.add(watcher);
    void this.show(watcher);
    return () => this.watchers.delete(watcher);
  }

  async move(_table: string, seat: number, action: number, version: number): Promise<MoveAnswer> {
    const answer = await this.engine.ask<MoveAnswer>("move", { table: this.id, seat, action, version });
    await this.changed();
    void this.moveBots();
    return answer;
  }

  hint(_table: string, seat: number, version: number): Promise<Hint> {
    return this.engine.ask<Hint>("hint", { table: this.id, seat, version });
  }

  /** Every bot to move moves, one move at a time, until a person is to move or the game ends. */
  async moveBots(): Promise<void> {
    if (this.botsMoving) return;
    this.botsMoving = true;
    try {
      while (!this.stopped) {
        const moved = await this.engine.ask<MoveAnswer | null>("bot", { table: this.id });
        if (moved === null) break;
        await this.changed();
        if (this.pace > 0) await new Promise((resolve) => setTimeout(resolve, this.pace));
      }
    } finally {
      this.botsMoving = false;
    }
  }

  /** The public facts of the table now (a spectator's view): whose move, the seats, the end. */
  summary(): Promise<SeatMessage> {
    return this.engine.ask<SeatMessage>("message", { table: this.id, seat: null });
  }

  /** The finished game's record as `courtly replay` reads it: JSON text, kept as it is (a
   * JavaScript number would round its seed). */
  record(): Promise<string> {
    return this.engine.ask<string>("record", { table: this.id });
  }

  stop(): void {
    this.stopped = true;
    this.watchers.clear();
  }

  private async changed(): Promise<void> {
    await Promise.all([...this.watchers].map((watcher) => this.show(watcher)));
  }

  private async show(watcher: Watcher): Promise<void> {
    try {
      const message = await this.engine.ask<SeatMessage>("message", {
        table: this.id,
        seat: watcher.seat,
        since: watcher.since(),
      });
      if (this.watchers.has(watcher)) watcher.onView(message);
    } catch (error) {
      if (this.watchers.has(watcher)) watcher.onError((error as Error).message);
    }
  }
}
