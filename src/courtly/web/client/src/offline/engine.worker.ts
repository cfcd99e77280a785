// The Web Worker that runs Courtly's engine and bots under Pyodide, so that the page never waits
// for a bot's search. It loads Pyodide's core and the packed engine from the app's own files,
// then answers each request of the page with courtly.offline.worker (JSON in, JSON out).
import { loadPyodide, type PyodideInterface } from "pyodide";

interface Request {
  id: number;
  request: string;
}

const base = new URL("/", self.location.href);

type Answer = (request: string, progress: (done: number, total: number) => void) => string;

async function start(): Promise<Answer> {
  const pyodide: PyodideInterface = await loadPyodide({ indexURL: new URL("pyodide/", base).href });
  const engine = await fetch(new URL("engine/courtly.zip", base));
  if (!engine.ok) throw new Error(`the engine could not be loaded (${engine.status})`);
  pyodide.unpackArchive(await engine.arrayBuffer(), "zip", { extractDir: "/courtly-engine" });
  pyodide.runPython(
    "import sys\nsys.path.insert(0, '/courtly-engine')\nfrom courtly.offline.worker import Worker\nworker = Worker()\n",
  );
  const worker = pyodide.globals.get("worker");
  return (request, progress) => worker.answer(request, progress) as string;
}

const ready = start();

self.onmessage = async (event: MessageEvent<Request>) => {
  const { id, request } = event.data;
  try {
    // A long request (a review) tells how it goes.
    const progress = (done: number, total: number) => self.postMessage({ id, progress: [done, total] });
    const answer = (await ready)(request, progress);
    self.postMessage({ id, answer });
  } catch (error) {
    self.postMessage({ id, failed: String(error) });
  }
};
