// A kept offline game replayed and reviewed by the engine in this browser, from its record: the
// replay and review pages' source (shared/finished.ts) when no server is asked. The engine checks
// the record as the server checks an uploaded one, and answers in the server's shapes.
import type { ReplayStep, ReviewJob, TableSummary } from "../api";
import type { FinishedGames } from "../shared/finished";
import { offlineReplayPath, offlineReviewPath } from "../router";
import type { Engine } from "./engine";
import type { KeptGame } from "./records";

export class KeptFinished implements FinishedGames {
  readonly online = false;
  private held: Promise<TableSummary> | null = null;
  private job: ReviewJob | null = null;
  private failed: Error | null = null;

  constructor(
    private readonly engine: Engine,
    private readonly kept: KeptGame,
  ) {}

  /** The engine holds the game (sent once; again if the engine dropped it for others). */
  private hold(): Promise<TableSummary> {
    this.held ??= this.engine.ask<TableSummary>("finished", { record: this.kept.record });
    return this.held;
  }

  table(): Promise<TableSummary> {
    return this.hold();
  }

  async replay(table: string, step: number | null, seat: number | "spectator" | "all"): Promise<ReplayStep> {
    await this.hold();
    return this.engine.ask<ReplayStep>("replay", { table, step, seat: String(seat) });
  }

  /** The review runs in the engine once; the page follows its progress as a server's job. */
  async startReview(table: string): Promise<ReviewJob> {
    if (this.job === null || this.failed !== null) {
      this.failed = null;
      this.job = { table, status: "running", done: 0, total: 0, budget: { iterations: 0 } };
      await this.hold();
      this.engine
        .ask<ReviewJob>("review", { table }, (done, total) => {
          if (this.job?.status === "running") this.job = { ...this.job, done, total };
        })
        .then(
          (job) => {
            this.job = job;
          },
          (error: Error) => {
            this.failed = error;
            this.job = { table, status: "failed", done: 0, total: 0, budget: { iterations: 0 }, detail: error.message };
          },
        );
    }
    return this.job;
  }

  async review(table: string): Promise<ReviewJob> {
    return this.job ?? this.startReview(table);
  }

  replayPath(table: string): string {
    return offlineReplayPath(table);
  }

  reviewPath(table: string): string {
    return offlineReviewPath(table);
  }

  tablePath(): string | null {
    return null;
  }
}
