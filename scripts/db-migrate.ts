// `npm run db:migrate`: applies lib/db/migrations to the configured database (DATABASE_URL, else the
// embedded PGlite in DATA_DIR). The app also does this at start-up; this is for deploy pipelines.
import { createDatabase, configuredSource } from "../lib/db/client";

async function main(): Promise<void> {
  const source = configuredSource();
  const handle = await createDatabase(source);
  await handle.close();
  console.log(`migrations applied (${handle.driver})`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
