import "server-only";

import { eq, sql } from "drizzle-orm";

import { recordEvent, type RequestContext } from "@/lib/audit-trail/server";
import type { Database } from "@/lib/db/client";
import type { ScreeningBudget } from "@/lib/monitoring/types";

import { monitoringSettings } from "./tables";

/*
 * The screening's daily budget of upstream calls (the admin sets it on /admin/cases) and what today's runs spent of
 * it, in the one settings row, so every instance reads and spends the same budget. The day is the display time
 * zone's, as the upstream-call counts are read by (lib/upstream/call-count.ts).
 */

function dayOf(now: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone }).format(now);
}

function budgetOf(row: { dailyBudget: number; spentDay: string | null; spentCalls: number }, today: string): ScreeningBudget {
  const spent = row.spentDay === today ? row.spentCalls : 0;
  return { dailyBudget: row.dailyBudget, spentToday: spent, left: Math.max(0, row.dailyBudget - spent) };
}

export async function readBudget(db: Database, timeZone: string, now = new Date()): Promise<ScreeningBudget> {
  const [row] = await db.select().from(monitoringSettings).where(eq(monitoringSettings.id, 1));
  return budgetOf(row ?? { dailyBudget: 0, spentDay: null, spentCalls: 0 }, dayOf(now, timeZone));
}

/** Adds `calls` to today's spending (another day's starts over) in one statement. */
export async function spendBudget(db: Database, timeZone: string, now: Date, calls: number): Promise<ScreeningBudget> {
  const today = dayOf(now, timeZone);
  const [row] = await db
    .update(monitoringSettings)
    .set({
      spentCalls: sql`case when ${monitoringSettings.spentDay} = ${today} then ${monitoringSettings.spentCalls} else 0 end + ${calls}`,
      spentDay: today,
    })
    .where(eq(monitoringSettings.id, 1))
    .returning();
  return budgetOf(row!, today);
}

/** Sets the daily budget, audited with the value before (`monitoring.settings_change`). */
export async function changeBudget(
  db: Database,
  context: RequestContext,
  dailyBudget: number,
  timeZone: string,
  now = new Date(),
): Promise<ScreeningBudget> {
  await db.transaction(async (raw) => {
    const tx = raw as unknown as Database;
    const [before] = await tx.select().from(monitoringSettings).where(eq(monitoringSettings.id, 1)).for("update");
    await tx.update(monitoringSettings).set({ dailyBudget, updatedAt: now }).where(eq(monitoringSettings.id, 1));
    await recordEvent(
      {
        actor: context.actor,
        ip: context.ip,
        pageView: context.pageView,
        action: "monitoring.settings_change",
        outcome: "success",
        details: { dailyBudget, was: before?.dailyBudget ?? 0 },
      },
      tx,
    );
  });
  return readBudget(db, timeZone, now);
}
