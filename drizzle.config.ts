import { defineConfig } from "drizzle-kit";

// `npm run db:generate` writes SQL migrations from lib/db/schema.ts; they are committed and applied at
// start-up (lib/db/client.ts) and by `npm run db:migrate`.
export default defineConfig({
  dialect: "postgresql",
  schema: "./lib/db/schema.ts",
  out: "./lib/db/migrations",
  strict: true,
  verbose: true,
});
