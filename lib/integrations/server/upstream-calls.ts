import "server-only";

import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { readUpstreamCalls } from "@/lib/db/upstream-calls";
import type { UpstreamCallsReport } from "@/lib/integrations/types";
import { startOfDay } from "@/lib/shared/time-zone";
import { flushUpstreamCalls } from "@/lib/upstream/call-count";

/*
 * What the service's calls cost this week (GET /api/upstream/calls, the integrations page), for one connection (its
 * key's quota; issue 33): today and the last 7 days per source (route, page or job) and kind (operation). This instance's tally is written first, so the
 * answer includes the calls made moments ago here; other instances' are at most a few seconds behind
 * (lib/upstream/call-count.ts).
 */

export const WEEK_DAYS = 7;
const DAY_MS = 86_400_000;

/** The last `count` calendar days in `timeZone`, oldest first, ending with the day holding `now`. */
function lastDays(now: Date, timeZone: string, count: number): string[] {
  const format = new Intl.DateTimeFormat("en-CA", { timeZone });
  // Noon of today, stepped back a day at a time: never lands on the wrong side of a midnight moved by daylight saving.
  const noon = startOfDay(format.format(now), timeZone).getTime() + DAY_MS / 2;
  return Array.from({ length: count }, (_, index) => format.format(new Date(noon - (count - 1 - index) * DAY_MS)));
}

export async function upstreamCallsReport(db: Database, connectionId: string, now: Date = new Date()): Promise<UpstreamCallsReport> {
  await flushUpstreamCalls(db);
  const days = lastDays(now, config().displayTimeZone, WEEK_DAYS);
  const today = days[days.length - 1]!;
  const weekFrom = days[0]!;
  const counts = await readUpstreamCalls(db, connectionId, weekFrom, today);

  const perDay = new Map(days.map((day) => [day, { day, core: 0, partners: 0 }]));
  const rows = new Map<string, UpstreamCallsReport["rows"][number]>();
  for (const { day, source, kind, count } of counts) {
    const bucket = perDay.get(day);
    if (bucket && kind.startsWith("core.")) bucket.core += count;
    else if (bucket && kind.startsWith("partners.")) bucket.partners += count;
    const key = `${source}\u0000${kind}`;
    const row = rows.get(key) ?? { source, kind, today: 0, week: 0 };
    row.week += count;
    if (day === today) row.today += count;
    rows.set(key, row);
  }
  const sorted = [...rows.values()].sort((a, b) => b.week - a.week || a.source.localeCompare(b.source) || a.kind.localeCompare(b.kind));
  return {
    today,
    weekFrom,
    days: [...perDay.values()],
    rows: sorted,
    totals: { today: sorted.reduce((sum, row) => sum + row.today, 0), week: sorted.reduce((sum, row) => sum + row.week, 0) },
  };
}
