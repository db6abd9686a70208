// `npm run db:migrate`: applies lib/db/migrations to the configured database (DATABASE_URL, else the
// embedded PGlite in DATA_DIR) and, in the embedded default only, seeds the demo accounts. The app also
// does this at start-up; this is for deploy pipelines and for `npm run dev`/`demo` before the server starts.
import { seedDemoAccountsIfConfigured } from "../lib/auth/server/seed";
import { openConfiguredDatabase } from "../lib/db/client";

async function main(): Promise<void> {
  const handle = await openConfiguredDatabase();
  try {
    await seedDemoAccountsIfConfigured(handle.db);
  } finally {
    await handle.close();
  }
  console.log(`database ready (${handle.driver})`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
