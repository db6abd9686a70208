import path from "node:path";

import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // `server-only` throws outside React Server Components; lib code is plain Node under Vitest.
      "server-only": path.resolve(import.meta.dirname, "test/server-only-stub.ts"),
    },
  },
  test: {
    // e2e/ holds Playwright specs, build folders hold copies; test/cluster/ has its own run (vitest.cluster.config.ts).
    exclude: ["node_modules/**", "e2e/**", ".next/**", ".next-*/**", ".data/**", ".test-data/**", "dist/**", "test/cluster/**"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite instances and the sandbox are heavy on 2 cores: keep parallelism modest.
    maxWorkers: 2,
    // Two kinds of test file, each next to its code. Each project takes the settings above (extends) and adds
    // its own files and environment.
    projects: [
      // Logic, route handlers, scripts: *.test.ts under Node.
      { extends: true, test: { name: "node", include: ["**/*.test.ts"], environment: "node" } },
      // Components: *.test.tsx in a browser-like document (jsdom), rendered through test/render.tsx.
      {
        extends: true,
        test: { name: "components", include: ["**/*.test.tsx"], environment: "jsdom", setupFiles: ["test/dom-setup.ts"] },
      },
    ],
  },
});
