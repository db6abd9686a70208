import { parseAnalyticsQuery } from "@/lib/analytics/period";
import { analyticsCsvFile } from "@/lib/analytics/server/export";
import { viewTeamAnalytics } from "@/lib/analytics/server/view";
import type { TeamAnalytics } from "@/lib/analytics/types";
import { csvFile, json, route } from "@/lib/api/route";
import { config } from "@/lib/config";
import { requestLocale } from "@/lib/i18n/request-locale";
import { todayIn } from "@/lib/overview/period";
import { querySchemaFromParser } from "@/lib/shared/from-parser";
import { currentConnectionId } from "@/lib/upstream/account";

// Read with the day the request arrives on: `from`, `to` (default the last 30 days) and `format`.
const query = querySchemaFromParser((params) => parseAnalyticsQuery(params, todayIn(config().displayTimeZone)));

// GET /api/analytics/team?from&to[&format=csv] – the team's and each member's case numbers for the period, from the
// dashboard's own records of the request's connection (no upstream call); the CSV has the page's table.
export const GET = route({ permission: "analytics.read", sideEffects: true, query }, async ({ db, request, context, query }) => {
  const input = { connectionId: currentConnectionId(), timeZone: config().displayTimeZone, ...query };
  const analytics = await viewTeamAnalytics(db, context, input);
  if (query.format === "json") return json<TeamAnalytics>(analytics);
  const file = await analyticsCsvFile(analytics, requestLocale(request));
  return csvFile(file.stream, file.filename, { "X-Total-Count": String(file.rows) });
});
