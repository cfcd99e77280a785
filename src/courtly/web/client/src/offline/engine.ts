// The page's side of the offline engine: one Web Worker (src/offline/engine.worker.ts) that plays
// a table with Courtly's own Python, asked in the shapes of courtly/offline/worker.py. Every
// answer is what the server would answer; a refusal is the server's refusal.
import type { Refusal } from "../api";

/** A request the engine refused: the server's refusal and the HTTP status it would have used. */
export class EngineRefusal extends Error {
  constructor(
    readonly refusal: Refusal,
    readonly status: number,
  ) {
    super(refusal.detail);
  }
}

type Answer = { ok: unknown } | { refused: Refusal; status: number };
type Progress = (done: number, total: number) => void;

export class Engine {
  private worker: Worker;
  private next = 0;
  private waiting = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void; progress?: Progress }
  >();

  constructor() {
    this.worker = new Worker(new URL("./engine.worker.ts", import.meta.url), { type: "module" });
    this.worker.onmessage = (
      event: MessageEvent<{ id: number; answer?: string; failed?: string; progress?: [number, number] }>,
    ) => {
      const { id, answer, failed, progress } = event.data;
      const waiting = this.waiting.get(id);
      if (!waiting) return;
      if (progress) {
        waiting.progress?.(progress[0], progress[1]);
        return;
      }
      this.waiting.delete(id);
      if (failed !== undefined || answer === undefined) {
        waiting.reject(new Error(failed ?? "the engine gave no answer"));
        return;
      }
      const parsed = JSON.parse(answer) as Answer;
      if ("ok" in parsed) waiting.resolve(parsed.ok);
      else waiting.reject(new EngineRefusal(parsed.refused, parsed.status));
    };
  }

  /** One request (`op` and its fields), answered as courtly.offline.worker answers it;
   * ``progress`` is told how a long one goes. */
  ask<T>(op: string, fields: Record<string, unknown> = {}, progress?: Progress): Promise<T> {
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject, progress });
      this.worker.postMessage({ id, request: JSON.stringify({ op, ...fields }) });
    });
  }

  stop(): void {
    this.worker.terminate();
  }
}

let shared: Engine | null = null;

/** One engine for the page's life: Pyodide loads once, and every offline page reuses it. */
export function sharedEngine(): Engine {
  shared ??= new Engine();
  return shared;
}
