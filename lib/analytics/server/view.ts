import "server-only";

import type { AnalyticsFormat, AnalyticsPeriod } from "@/lib/analytics/period";
import type { TeamAnalytics } from "@/lib/analytics/types";
import { audited, type RequestContext } from "@/lib/audit-trail/server";
import type { Database } from "@/lib/db/client";

import { teamAnalytics } from "./team";

/**
 * The team's numbers as an audited read (`analytics.view`, with the period and the format asked: json, csv or the page), for the route
 * and the page alike: they name each member's work, so who looked at them is on the trail.
 */
export function viewTeamAnalytics(
  db: Database,
  context: RequestContext,
  input: { connectionId: string; period: AnalyticsPeriod; timeZone: string; format: AnalyticsFormat | "page" },
): Promise<TeamAnalytics> {
  const { period, format } = input;
  return audited(
    context,
    {
      action: "analytics.view",
      details: { from: period.from, to: period.to, format },
      detailsOf: (result) => ({ members: result.members.length }),
    },
    () => teamAnalytics(db, input),
  );
}
