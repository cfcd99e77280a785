"""Play offline, measured: the offline bundle's download (compressed), the time to the first
playable table in Chromium (cold: a new browser profile; warm: the same profile again, its
HTTP cache filled), and a search bot's move time in the Web Worker against the same bot in
CPython (the same requests to ``courtly.offline.worker``, the same seeds).

Needs the built client (make client) and Debian's Chromium; it starts its own ``courtly serve``.
    python benchmarks/offline.py [--moves 20]
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

import courtly.web
from courtly.offline.worker import REVIEW_ITERATIONS, Worker
from courtly.testing.server import ServerProcess

STATIC = Path(courtly.web.__file__).parent / "static"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu"]
GAME = "royal-gambit"
BOTS = [{"kind": "bot", "bot": "ismcts"}, {"kind": "bot", "bot": "ismcts"}]


def bundle() -> dict[str, int]:
    """Bytes of what /offline downloads: every file of the build, as sent compressed (gzip at
    level 6 stands in for the server's or the CDN's compression of each)."""
    raw = compressed = 0
    for path in STATIC.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            raw += len(data)
            compressed += len(gzip.compress(data, 6))
    return {"raw_bytes": raw, "gzip_bytes": compressed}


def first_table(page: Page, url: str) -> float:
    """Seconds from opening /offline to a move button that may be pressed."""
    start = time.perf_counter()
    page.goto(url + "/offline")
    page.get_by_role("button", name="Start the game").click(timeout=180_000)
    page.locator("button.action:not([aria-disabled=true])").first.wait_for(timeout=180_000)
    return time.perf_counter() - start


WORKER_MOVES = """async ([script, game, seats, moves]) => {
  const worker = new Worker(script, { type: "module" });
  let next = 0;
  const ask = (request) => new Promise((resolve, reject) => {
    const id = next++;
    worker.addEventListener("message", function on(event) {
      if (event.data.id !== id) return;
      worker.removeEventListener("message", on);
      event.data.failed ? reject(new Error(event.data.failed)) : resolve(JSON.parse(event.data.answer));
    });
    worker.postMessage({ id, request: JSON.stringify(request) });
  });
  await ask({ op: "new", game, seats, seed: 1 });
  const times = [];
  for (let i = 0; i < moves; i++) {
    const start = performance.now();
    const answer = await ask({ op: "bot" });
    if (answer.ok === null) break;
    times.push(performance.now() - start);
  }
  worker.terminate();
  return times;
}"""


WORKER_REVIEW = """async ([script, game, seats]) => {
  const worker = new Worker(script, { type: "module" });
  let next = 0;
  const ask = (request) => new Promise((resolve, reject) => {
    const id = next++;
    worker.addEventListener("message", function on(event) {
      if (event.data.id !== id || event.data.progress) return;
      worker.removeEventListener("message", on);
      event.data.failed ? reject(new Error(event.data.failed)) : resolve(JSON.parse(event.data.answer));
    });
    worker.postMessage({ id, request: JSON.stringify(request) });
  });
  await ask({ op: "new", game, seats, seed: 1 });
  while ((await ask({ op: "bot" })).ok !== null) {}
  const record = (await ask({ op: "record" })).ok;
  const table = JSON.parse(record).deal.table;
  await ask({ op: "finished", record });
  const start = performance.now();
  await ask({ op: "review", table });
  worker.terminate();
  return [performance.now() - start, JSON.parse(record).history.length];
}"""
REVIEWED = [{"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "heuristic"}]
"""The game reviewed: Royal Gambit between two heuristic bots, seed 1."""


def native_review() -> float:
    worker = Worker()
    worker.answer(json.dumps({"op": "new", "game": GAME, "seats": REVIEWED, "seed": 1}))
    while json.loads(worker.answer('{"op": "bot"}'))["ok"] is not None:
        pass
    record = json.loads(worker.answer('{"op": "record"}'))["ok"]
    table = json.loads(record)["deal"]["table"]
    worker.answer(json.dumps({"op": "finished", "record": record}))
    start = time.perf_counter()
    worker.answer(json.dumps({"op": "review", "table": table}))
    return (time.perf_counter() - start) * 1000


def native_moves(moves: int) -> list[float]:
    worker = Worker()
    worker.answer(json.dumps({"op": "new", "game": GAME, "seats": BOTS, "seed": 1}))
    times = []
    for _ in range(moves):
        start = time.perf_counter()
        if json.loads(worker.answer('{"op": "bot"}'))["ok"] is None:
            break
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=20, help="bot moves timed each way")
    args = parser.parse_args()
    result: dict[str, Any] = {"bundle": bundle()}
    with tempfile.TemporaryDirectory() as folder:
        server = ServerProcess(f"sqlite:///{folder}/courtly.sqlite3", Path(folder) / "log", [])
        server.wait_ready()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                context = browser.new_context()
                cold = first_table(context.new_page(), server.url)
                warm = first_table(context.new_page(), server.url)
                result["first_table_s"] = {"cold": round(cold, 2), "warm": round(warm, 2)}
                script = "/assets/" + next((STATIC / "assets").glob("engine.worker-*.js")).name
                page = context.new_page()
                page.goto(server.url + "/offline")
                in_worker = page.evaluate(WORKER_MOVES, [script, GAME, BOTS, args.moves])
                review_ms, events = page.evaluate(WORKER_REVIEW, [script, GAME, REVIEWED])
                browser.close()
        finally:
            server.stop()
    native = native_moves(args.moves)
    result["ismcts_move_ms"] = {
        "worker_median": round(statistics.median(in_worker), 1),
        "native_median": round(statistics.median(native), 1),
        "moves": len(in_worker),
    }
    result["ismcts_move_ms"]["ratio"] = round(
        result["ismcts_move_ms"]["worker_median"] / result["ismcts_move_ms"]["native_median"], 2
    )
    native_review_ms = native_review()
    result["review_ms"] = {
        "events": events,
        "iterations": REVIEW_ITERATIONS,
        "worker": round(review_ms),
        "native": round(native_review_ms),
        "ratio": round(review_ms / native_review_ms, 2),
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
