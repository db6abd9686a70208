/*
 * Runs once when the server starts (Next's instrumentation hook), in the Node.js runtime only:
 *
 * 1. copy each connection's peer address into a header route handlers can trust (lib/auth/peer-address.ts);
 * 2. read the configuration, so a missing or weak secret stops start-up with a message naming it;
 * 3. open the database, which applies migrations (and seeds the demo accounts in embedded mode);
 * 4. start the scheduled case sync (lib/cases/schedule.ts; a database lease makes one instance run it).
 *
 * Skipped during `next build`: nothing is served then, and build workers must not open the data folder.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  const { installPeerAddressHeader } = await import("./lib/auth/peer-address");
  installPeerAddressHeader();
  const { config } = await import("./lib/config");
  config();
  const { getDb } = await import("./lib/db/client");
  await getDb();
  const { startCaseSyncSchedule } = await import("./lib/cases/schedule");
  startCaseSyncSchedule();
}
