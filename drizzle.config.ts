import { defineConfig } from "drizzle-kit";

// `npm run db:generate` writes SQL migrations from the schema files (the database layer's own tables and each
// feature's `server/tables.ts`); they are committed and applied at start-up (lib/db/client.ts) and by
// `npm run db:migrate`.
export default defineConfig({
  dialect: "postgresql",
  schema: ["./lib/db/tables.ts", "./lib/*/server/tables.ts"],
  out: "./lib/db/migrations",
  strict: true,
  verbose: true,
});
