import "server-only";

import { randomUUID } from "node:crypto";

import { isNull } from "drizzle-orm";

import { expiryWarning } from "@/lib/connections/key-life";
import { connections } from "@/lib/connections/server/tables";
import type { Database } from "@/lib/db/client";
import { getDb } from "@/lib/db/client";
import { acquireLease, releaseLease } from "@/lib/db/lease";
import { startLeasedJob } from "@/lib/db/leased-job";
import { log } from "@/lib/log";
import { membersHolding, notify } from "@/lib/notifications/server/notify";
import { kickOutbox } from "@/lib/notifications/server/outbox";

/*
 * Warnings before a connection's key expires (issue 35, item 4): once an hour, one instance (under the lease) looks at
 * every live connection's key expiry (lib/connections/key-life.ts) and tells the integration admins who may use it,
 * in the bell and by email and chat where configured, when it comes within 30 days, again within 7, and once it has
 * expired. Each warning is made once per key (the notification's dedupe key names the key's version and the
 * threshold), so an hourly look repeats nothing, and a rotated key starts afresh. The connections page shows the same
 * warning whenever it is open.
 */

export const KEY_EXPIRY_LEASE = "connections.key_expiry";
const LEASE_TTL_MS = 5 * 60_000;
const EVERY_MS = 60 * 60_000;

export interface KeyExpiryReport {
  ran: boolean;
  /** The connections warned about in this run, with the warning each is at. */
  warned: Array<{ connectionId: string; warning: string; told: number }>;
}

export async function warnExpiringKeys(
  db: Database,
  { holder, now = new Date(), minGapMs = 0 }: { holder: string; now?: Date; minGapMs?: number },
): Promise<KeyExpiryReport> {
  if (!(await acquireLease(db, { name: KEY_EXPIRY_LEASE, holder, ttlMs: LEASE_TTL_MS, minGapMs, now }))) return { ran: false, warned: [] };
  const warned: KeyExpiryReport["warned"] = [];
  try {
    const admins = (await membersHolding(db, "integrations.manage")).map((member) => member.id);
    // Read afresh (not the store's few-seconds cache): an hourly look sees the expiry as it stands.
    for (const row of await db.select().from(connections).where(isNull(connections.retiredAt))) {
      const warning = expiryWarning(row.coreKeyExpiresAt, now);
      if (!warning) continue;
      const { created } = await db.transaction((tx) =>
        notify(tx as unknown as Database, {
          userIds: admins,
          kind: "key_expiring",
          casePublicId: "",
          connectionId: row.id,
          link: "/admin/connections",
          dedupeKey: `key:${row.version}:${warning}`,
        }),
      );
      if (created > 0) log.warn("connection_key_expiring", { connection: row.id, warning, keyHint: row.coreKeyHint });
      warned.push({ connectionId: row.id, warning, told: created });
    }
  } finally {
    await releaseLease(db, KEY_EXPIRY_LEASE, holder, new Date());
  }
  if (warned.some((entry) => entry.told > 0)) void kickOutbox();
  return { ran: true, warned };
}

const INSTANCE = randomUUID();

/** Once an hour across the instances (instrumentation.ts; lib/db/leased-job.ts wakes it when a run is due). */
export function startKeyExpirySchedule(): void {
  startLeasedJob({
    lease: KEY_EXPIRY_LEASE,
    gapMs: EVERY_MS,
    firstLookMs: 30_000,
    maxSleepMs: EVERY_MS,
    run: async ({ first, minGapMs }) => {
      const report = await warnExpiringKeys(await getDb(), { holder: INSTANCE, minGapMs: first ? 0 : minGapMs });
      return report.ran ? "ran" : "idle";
    },
  });
}
