// The client is built into ../static, which `courtly serve` serves (and the wheel ships).
// `npm run dev` serves it with hot reload and sends /api (REST and WebSocket) to a
// `courtly serve` on port 8000.
/// <reference types="node" />
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";
import { VitePWA } from "vite-plugin-pwa";

// Pyodide's core, from the `pyodide` package of the lockfile: served from the build itself
// (under /pyodide/), never from a CDN. Only the core: the engine needs no Pyodide package.
const PYODIDE_FILES = ["pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];
export const PYODIDE_DIR = "pyodide";
export const ENGINE_ZIP = "engine/courtly.zip";
const HERE = fileURLToPath(new URL(".", import.meta.url));

/** The offline engine in the build: Pyodide's core files, and Courtly's pure-Python engine
 * packed by tools/pack_engine.py (with the Python of $PYTHON, or python3). */
function offlineEngine(): Plugin {
  return {
    name: "courtly-offline-engine",
    apply: "build",
    generateBundle() {
      const pyodide = resolve(HERE, "node_modules/pyodide");
      for (const file of PYODIDE_FILES) {
        this.emitFile({ type: "asset", fileName: `${PYODIDE_DIR}/${file}`, source: readFileSync(join(pyodide, file)) });
      }
      const work = mkdtempSync(join(tmpdir(), "courtly-engine-"));
      try {
        const zip = join(work, "courtly.zip");
        const tool = resolve(HERE, "../../../../tools/pack_engine.py");
        execFileSync(process.env.PYTHON ?? "python3", [tool, zip], { stdio: "inherit" });
        this.emitFile({ type: "asset", fileName: ENGINE_ZIP, source: readFileSync(zip) });
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    },
  };
}

export default defineConfig({
  // Preact's JSX runtime (the same as tsconfig.json's jsxImportSource).
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  plugins: [
    offlineEngine(),
    // Installable, and playable with the network off after one visit: the manifest, and a
    // service worker (Workbox) that precaches the whole build (the client, Pyodide, the engine).
    // A new version waits until the page accepts it (offline.tsx offers it), never forced.
    VitePWA({
      registerType: "prompt",
      injectRegister: false,
      includeAssets: ["icon.svg"],
      manifest: {
        name: "Courtly",
        short_name: "Courtly",
        description: "Five royal card games and their bots, playable offline.",
        start_url: "/offline",
        scope: "/",
        display: "standalone",
        theme_color: "#6b2d8f",
        background_color: "#f6f3ee",
        icons: [{ src: "/icon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" }],
      },
      workbox: {
        globPatterns: ["**/*.{html,js,mjs,css,svg,wasm,zip,json}"],
        // Pyodide's WebAssembly is about 10 MB.
        maximumFileSizeToCacheInBytes: 16 * 1024 * 1024,
        navigateFallback: "/index.html",
        // The server's own answers are never the app's page.
        navigateFallbackDenylist: [/^\/api\//, /^\/docs/, /^\/redoc/, /^\/openapi\.json/],
      },
    }),
  ],
  build: {
    outDir: "../static",
    emptyOutDir: true,
    target: "es2022",
  },
  worker: { format: "es" },
  // Pyodide finds its own files by URL: it is not pre-bundled by the dev server.
  optimizeDeps: { exclude: ["pyodide"] },
  server: {
    proxy: { "/api": { target: "http://127.0.0.1:8000", ws: true } },
  },
});
