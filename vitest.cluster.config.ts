import path from "node:path";

import { defineConfig } from "vitest/config";

// The deployment of several instances (test/cluster/): `npm run test:cluster`, and `npm test` after the browser tests.
// Not in the main run (vitest.config.ts leaves test/cluster/ out): it packages the archive, starts PostgreSQL's
// database, two instances, nginx and the sandbox, and takes a few minutes. One file at a time, one test after another.
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    name: "cluster",
    include: ["test/cluster/**/*.test.ts"],
    environment: "node",
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
