// The client is built into ../static, which `courtly serve` serves (and the wheel ships).
// `npm run dev` serves it with hot reload and sends /api (REST and WebSocket) to a
// `courtly serve` on port 8000.
import { defineConfig } from "vite";

export default defineConfig({
  // Preact's JSX runtime (the same as tsconfig.json's jsxImportSource).
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: "../static",
    emptyOutDir: true,
    target: "es2022",
  },
  server: {
    proxy: { "/api": { target: "http://127.0.0.1:8000", ws: true } },
  },
});
