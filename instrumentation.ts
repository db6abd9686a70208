/*
 * Runs once when the server starts (Next's instrumentation hook), in the Node.js runtime only:
 *
 * 0. make a lost output (its reader gone: a closed pipe) drop its lines instead of spinning the process
 *    (lib/runtime/output.ts), then start tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set (lib/tracing/exporter.ts);
 * 1. copy each connection's peer address into a header route handlers can trust (lib/auth/server/peer-address.ts);
 * 2. read the configuration, so a missing or weak secret stops start-up with a message naming it, and warn
 *    about each valid setting that weakens a guarantee;
 * 3. open the database, which applies migrations, then seed the demo accounts in embedded mode;
 * 4. start sweeping stored webhook deliveries (lib/webhooks/server/processor.ts): the receiver kicks processing
 *    right after storing, and the sweep picks up whatever a crash, a restart or a failed listener left, and a
 *    failed delivery when its retry is due;
 * 5. start the scheduled case sync (lib/cases/server/schedule.ts; a database lease makes one instance run it).
 * 6. start the SLA escalation (lib/cases/server/escalation.ts; every minute, a lease makes one instance run it)
 *    and the notifications' outbox (lib/notifications/server/outbox.ts: email and chat, when configured; each
 *    message is taken by one instance, and the actions that enqueue kick it right away).
 * 7. start the retention pruner (lib/privacy/server/schedule.ts; every RETENTION_RUN_HOURS, default 24, a lease
 *    makes one instance run it), and the late titular requests' notice (lib/privacy/server/late-requests.ts; every
 *    15 minutes, a lease makes one instance run it, each late request told once).
 * 8. start the re-seal of case notes and comments under the data key ring's current key
 *    (lib/cases/server/text-reseal.ts; soon after start-up, then every 6 hours, a lease makes one instance run it).
 * 9. start re-keying the search index after an audit key rotation (lib/cases/server/rekey.ts; every
 *    SEARCH_REKEY_INTERVAL_MINUTES, a lease makes one instance run it; nothing to do without a rotation).
 * 10. start writing the upstream-call counts every few seconds (lib/upstream/call-count.ts: the hot path only
 *     counts in memory).
 * 11. start signing the audit trail's head (lib/audit-trail/server/head-schedule.ts; every
 *     AUDIT_HEAD_CHECKPOINT_MINUTES, a lease makes one instance do it), copied outside the database.
 * 12. in the embedded default, answer `npm run db:backup` on a unix socket in DATA_DIR (lib/backup/server/socket-server.ts):
 *     PGlite admits one process, so the server copies its own open database for the command.
 * 13. install the graceful stop on SIGTERM (lib/runtime/shutdown.ts) when Next leaves the signals to the app
 *     (NEXT_MANUAL_SIG_HANDLE=true: `npm start`, `npm run demo`), with what it stops, in order.
 *
 * The background work (4 to 11) runs as jobs of lib/runtime/scheduler.ts: each wakes when its next run is due, and
 * the graceful stop (13) stops them all.
 *
 * Skipped during `next build`: nothing is served then, and build workers must not open the data folder.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  // Before anything is written: an output whose reader has gone only loses its lines (lib/runtime/output.ts).
  (await import("./lib/runtime/output")).guardProcessOutput();
  // Traces first, so what start-up does is traced too (lib/tracing/exporter.ts; OTEL_EXPORTER_OTLP_ENDPOINT).
  const tracing = (await import("./lib/config")).config().operations.tracing;
  if (tracing) (await import("./lib/tracing/exporter")).startTracing(tracing);
  const { installPeerAddressHeader } = await import("./lib/auth/server/peer-address");
  installPeerAddressHeader();
  const { config, configWarnings } = await import("./lib/config");
  const { log } = await import("./lib/log");
  for (const warning of configWarnings(config())) log.warn("config_warning", { warning });
  // The second-factor policy in force, and whether it was chosen or is the mode's default (docs/security.md).
  const { mfaRequired, mfaRequiredDefaulted, passwordSignIn } = config().signIn;
  log.info("sign_in_policy", { mfaRequired, chosenBy: mfaRequiredDefaulted ? "default for this mode" : "MFA_REQUIRED", passwordSignIn });
  const { getDb } = await import("./lib/db/client");
  const { seedDemoAccountsIfConfigured } = await import("./lib/auth/server/seed");
  await seedDemoAccountsIfConfigured(await getDb());
  // The consumers of verification changes register before the sweeper runs (lib/webhooks/server/changes.ts).
  await import("./lib/cases/server/register");
  await import("./lib/overview/server/register");
  const { startWebhookSweeper } = await import("./lib/webhooks/server/processor");
  startWebhookSweeper();
  const { startCaseSyncSchedule } = await import("./lib/cases/server/schedule");
  startCaseSyncSchedule();
  const { startEscalationSchedule } = await import("./lib/cases/server/escalation");
  startEscalationSchedule();
  const { startOutboxWorker } = await import("./lib/notifications/server/outbox");
  startOutboxWorker();
  const { startRetentionSchedule } = await import("./lib/privacy/server/schedule");
  startRetentionSchedule();
  const { startResealSchedule } = await import("./lib/cases/server/text-reseal");
  startResealSchedule();
  const { startSearchRekeySchedule } = await import("./lib/cases/server/rekey");
  startSearchRekeySchedule();
  const { startKeyExpirySchedule } = await import("./lib/integrations/server/key-expiry");
  startKeyExpirySchedule();
  const { startLateRequestsSchedule } = await import("./lib/privacy/server/late-requests");
  startLateRequestsSchedule();
  const { startScreeningSchedule } = await import("./lib/monitoring/server/schedule");
  startScreeningSchedule();
  const { startUpstreamCallFlusher } = await import("./lib/upstream/call-count");
  startUpstreamCallFlusher();
  const { startAuditHeadSchedule } = await import("./lib/audit-trail/server/head-schedule");
  startAuditHeadSchedule();
  const { startBackupSocket } = await import("./lib/backup/server/socket-server");
  await startBackupSocket();
  await installShutdown();
}

async function installShutdown() {
  const { config } = await import("./lib/config");
  const { log } = await import("./lib/log");
  if (process.env.NEXT_MANUAL_SIG_HANDLE !== "true") {
    log.warn("graceful_shutdown_off", { reason: "NEXT_MANUAL_SIG_HANDLE is not true: Next handles SIGTERM itself" });
    return;
  }
  const { onStop } = await import("./lib/runtime/lifecycle");
  const { stopJobs } = await import("./lib/runtime/scheduler");
  const { stopOutbox } = await import("./lib/notifications/server/outbox");
  const { getDatabaseHandle } = await import("./lib/db/client");
  const { releaseHeldLeases } = await import("./lib/db/lease");
  const { flushUpstreamCalls } = await import("./lib/upstream/call-count");
  onStop("jobs", stopJobs);
  onStop("outbox", stopOutbox);
  onStop("leases", async () => releaseHeldLeases((await getDatabaseHandle()).db));
  onStop("upstream counts", async () => flushUpstreamCalls((await getDatabaseHandle()).db));
  onStop("database", async () => (await getDatabaseHandle()).close());
  const { stopTracing } = await import("./lib/tracing/exporter");
  onStop("traces", stopTracing);
  const { installGracefulShutdown } = await import("./lib/runtime/shutdown");
  installGracefulShutdown({ graceMs: config().operations.shutdownGraceSeconds * 1000 });
}
