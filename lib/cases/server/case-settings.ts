import "server-only";

import { eq } from "drizzle-orm";

import { recordEvent } from "@/lib/audit-trail/server";
import { caseRoutingSettings } from "@/lib/cases/server/tables";
import type { TakeSettings } from "@/lib/cases/take-mode";
import type { Database } from "@/lib/db/client";

import type { CaseContext } from "./context";
import { routingSettings } from "./routing";

/*
 * The team's case settings outside routing: when a member takes an unassigned case (lib/cases/take-mode.ts).
 * Kept in the routing settings row (id 1), so every instance reads the same one.
 */

export async function readTakeSettings(db: Database): Promise<TakeSettings> {
  const { takeMode } = await routingSettings(db);
  return { takeMode };
}

/** Changes the settings under the row's lock (one change at a time, as routing's), audited with the old and new value. */
export async function changeTakeSettings(db: Database, context: CaseContext, input: TakeSettings, now = new Date()): Promise<TakeSettings> {
  await db.transaction(async (raw) => {
    const tx = raw as unknown as Database;
    const before = await routingSettings(tx, true);
    await tx.update(caseRoutingSettings).set({ takeMode: input.takeMode, updatedAt: now }).where(eq(caseRoutingSettings.id, 1));
    await recordEvent(
      {
        actor: context.actor,
        ip: context.ip,
        pageView: context.pageView,
        action: "case.settings_change",
        outcome: "success",
        details: { takeMode: input.takeMode, was: before.takeMode },
      },
      tx,
    );
  });
  return readTakeSettings(db);
}
