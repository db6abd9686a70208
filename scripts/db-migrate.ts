// `npm run db:migrate`: applies lib/db/migrations to the configured database (DATABASE_URL, else the
// embedded PGlite in DATA_DIR) and, in the embedded default only, seeds the demo accounts. The app also
// does this at start-up; this is for deploy pipelines and for `npm run dev`/`demo` before the server starts.
import { seedDemoAccountsIfConfigured } from "@/lib/auth/server/seed";

import { runCli, withDatabase } from "./cli";

async function main(): Promise<void> {
  const driver = await withDatabase(async ({ db, driver }) => {
    await seedDemoAccountsIfConfigured(db);
    return driver;
  });
  console.log(`database ready (${driver})`);
}

runCli(main, { exitCode: () => 1 });
