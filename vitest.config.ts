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
    // Every *.test.ts next to its code; e2e/ holds Playwright specs, build folders hold copies.
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", "e2e/**", ".next/**", ".next-*/**", ".data/**", ".test-data/**"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite instances and the sandbox are heavy on 2 cores: keep parallelism modest.
    maxWorkers: 2,
  },
});
