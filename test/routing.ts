import "server-only";

import { randomUUID } from "node:crypto";

import { eq } from "drizzle-orm";

import type { RoutingConfigInput } from "@/lib/cases/routing-validation";
import { autoAssign } from "@/lib/cases/server/auto-assign";
import type { CaseContext } from "@/lib/cases/server/context";
import { replaceRouting } from "@/lib/cases/server/routing";
import { applyObservations, observe } from "@/lib/cases/server/store";
import { cases, DEFAULT_QUEUE_ID } from "@/lib/cases/server/tables";
import type { Database } from "@/lib/db/client";
import { makeVerification, TEST_SETTINGS } from "@/test/cases";

// The team's routing in tests: a queue of one's own, and a case opened through the routing and auto-assignment.

/** A case opened as the sync opens one (routed), then auto-assigned when that is on; answers its id. */
export async function openRoutedCase(db: Database, overrides: Parameters<typeof makeVerification>[0] = {}): Promise<string> {
  const verification = makeVerification(overrides);
  const { opened } = await applyObservations(db, [observe(verification, TEST_SETTINGS)], TEST_SETTINGS);
  await autoAssign(db, opened);
  return verification.publicId;
}

/** The team's routing replaced: a queue of its own (besides the default) with these members; PEP cases go to it. */
export async function teamQueue(
  db: Database,
  admin: CaseContext,
  members: Array<{ userId: string; lead?: boolean }>,
  options: Partial<RoutingConfigInput> = {},
): Promise<string> {
  const queueId = randomUUID();
  await replaceRouting(db, admin, {
    autoAssign: true,
    capacity: 2,
    queues: [
      { id: DEFAULT_QUEUE_ID, name: "General", members: [] },
      { id: queueId, name: `Team ${queueId.slice(0, 8)}`, members: members.map((member) => ({ lead: false, ...member })) },
    ],
    rules: [{ queueId, conditions: { flags: ["pep"] } }],
    ...options,
  });
  return queueId;
}

/**
 * The routing tests' helpers over a database and an admin both made in `beforeAll` (hence read through functions):
 * open a routed case, read a case's row, give the team a queue of its own (PEP cases go to it).
 */
export function routingHelpers(db: () => Database, admin: () => CaseContext) {
  return {
    openCase: (overrides: Parameters<typeof openRoutedCase>[1] = {}) => openRoutedCase(db(), overrides),
    caseRow: async (publicId: string) => (await db().select().from(cases).where(eq(cases.publicId, publicId)))[0]!,
    configure: (members: Parameters<typeof teamQueue>[2], options: Parameters<typeof teamQueue>[3] = {}) =>
      teamQueue(db(), admin(), members, options),
  };
}
