"""What an operator wants to know of a ``courtly serve`` process, measured on this machine:

- the requests one client address makes before its first 429 at the default limits, and how
  fast (one client on a kept-alive connection, as fast as the server answers);
- the memory (RSS) of the server process holding 1,000 open tables (a person's seat free, a
  bot at the other), and per table;
- the restart with those tables: how long a SIGTERM takes to stop the server, and how long a
  new process takes until it answers (every open table is loaded at start).

The server is a real process on a fresh SQLite file, started from ``--src`` (this checkout's
``src`` by default; another checkout's to compare, whose server may know no limits: then the
first measure is skipped).

    python benchmarks/operating.py
    python benchmarks/operating.py --src /path/to/other/checkout/src --tables 1000
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

HOST = "127.0.0.1"
COMMAND = ("-c", "import sys; from courtly.cli import main; sys.exit(main())")
NO_LIMITS = ["--max-requests-per-minute=0", "--max-tables-per-address=0", "--max-tables=0"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


class Server:
    """``courtly serve`` from ``src`` on ``database``, in a process group of its own."""

    def __init__(self, src: Path, database: str, options: list[str], log: Path) -> None:
        self.port = free_port()
        self.url = f"http://{HOST}:{self.port}"
        env = {**os.environ, "PYTHONPATH": str(src)}
        command = [sys.executable, *COMMAND, "serve", "--port", str(self.port)]
        command += ["--database-url", database, "--bot-pace", "0", "--bot-workers", "1"]
        self.started = time.monotonic()
        with log.open("ab") as output:
            self.process = subprocess.Popen(
                [*command, *options],
                env=env,
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def wait_ready(self) -> float:
        """Seconds from the start until ``GET /api/games`` answers."""
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/games", timeout=5):
                    return time.monotonic() - self.started
            except (OSError, urllib.error.URLError):
                time.sleep(0.02)

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def stop(self) -> float:
        """SIGTERM to the process group; seconds until the server exited."""
        started = time.monotonic()
        os.killpg(self.process.pid, signal.SIGTERM)
        self.process.wait(timeout=120)
        stopped = time.monotonic() - started
        # Whatever an old server left behind (its workers) goes too.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        return stopped


def call(url: str, method: str = "GET", body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def requests_before_429(server: Server) -> dict[str, float]:
    """One client, one kept-alive connection, ``GET /api/tables`` as fast as answered."""
    import http.client

    connection = http.client.HTTPConnection(HOST, server.port, timeout=30)
    accepted = 0
    started = time.monotonic()
    while True:
        connection.request("GET", "/api/tables")
        response = connection.getresponse()
        response.read()
        if response.status == 429:
            elapsed = time.monotonic() - started
            retry = float(response.getheader("Retry-After") or "nan")
            break
        accepted += 1
    connection.close()
    return {
        "accepted before the first 429": accepted,
        "seconds": round(elapsed, 2),
        "requests per second until then": round(accepted / elapsed, 1),
        "Retry-After": retry,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    here = Path(__file__).resolve().parents[1] / "src"
    parser.add_argument("--src", type=Path, default=here, help="the courtly sources to run")
    parser.add_argument("--tables", type=int, default=1000, help="open tables to hold")
    args = parser.parse_args()
    results: dict[str, Any] = {"src": str(args.src)}
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "server.log"
        if (
            "--max-requests-per-minute"
            in subprocess.run(
                [sys.executable, *COMMAND, "serve", "--help"],
                env={**os.environ, "PYTHONPATH": str(args.src), "COLUMNS": "200"},
                capture_output=True,
                text=True,
            ).stdout
        ):
            limited = Server(args.src, f"sqlite:///{folder}/limits.sqlite3", [], log)
            limited.wait_ready()
            results["rate limit (defaults)"] = requests_before_429(limited)
            limited.stop()
            options = NO_LIMITS
        else:
            options = []
        database = f"sqlite:///{folder}/tables.sqlite3"
        first = Server(args.src, database, options, log)
        first.wait_ready()
        time.sleep(1)
        empty = first.rss_mb()
        body = {
            "game": "royal-gambit",
            "players": 2,
            "seats": [{"kind": "person"}, {"kind": "bot", "bot": "heuristic"}],
        }
        started = time.monotonic()
        for _ in range(args.tables):
            status, answer = call(f"{first.url}/api/tables", "POST", body)
            assert status == 201, answer
        created = time.monotonic() - started
        time.sleep(1)
        full = first.rss_mb()
        results["memory"] = {
            "tables": args.tables,
            "RSS empty (MB)": round(empty, 1),
            "RSS with the tables (MB)": round(full, 1),
            "KB per table": round((full - empty) * 1024 / args.tables, 1),
            "tables created per second": round(args.tables / created, 1),
        }
        stop = first.stop()
        second = Server(args.src, database, options, log)
        ready = second.wait_ready()
        listed = call(f"{second.url}/api/tables?limit=500")[1]
        results["restart"] = {
            "tables": args.tables,
            "SIGTERM to exit (s)": round(stop, 2),
            "start to first answer (s)": round(ready, 2),
            "RSS after the restart (MB)": round(second.rss_mb(), 1),
            "open tables listed": len(listed),
        }
        second.stop()
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
