import { headers } from "next/headers";

import { AnalyticsPeriodForm } from "@/components/analytics/period-form";
import { TeamView } from "@/components/analytics/team-view";
import { RefusedPeriod } from "@/components/ui/refused-period";
import { parseAnalyticsQuery } from "@/lib/analytics/period";
import { viewTeamAnalytics } from "@/lib/analytics/server/view";
import { requestContext } from "@/lib/audit-trail/server";
import { config } from "@/lib/config";
import { pageConnection, requireConnectionPageUser } from "@/lib/connections/server/page";
import { getDb } from "@/lib/db/client";
import { pageTitle } from "@/lib/i18n/page-title";
import { todayIn } from "@/lib/overview/period";
import { toUrlSearchParams, type PageSearchParams } from "@/lib/shared/page-search-params";

export const generateMetadata = pageTitle("analytics");

// /analytics – the team's numbers for a period, drawn on the server from the same audited read as
// GET /api/analytics/team, under the page's connection. No client JavaScript of its own; nothing asked upstream.
export default async function AnalyticsPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const user = await requireConnectionPageUser("analytics.read");
  const timeZone = config().displayTimeZone;
  const params = toUrlSearchParams(await searchParams);
  const parsed = parseAnalyticsQuery(params, todayIn(timeZone));

  if (!parsed.ok) {
    // Refused by name before anything is read, the form kept as typed, a way back to the default period.
    return (
      <RefusedPeriod namespace="analytics" clearHref="/analytics" problems={parsed.problems}>
        <AnalyticsPeriodForm from={params.get("from") ?? undefined} to={params.get("to") ?? undefined} timeZone={timeZone} />
      </RefusedPeriod>
    );
  }

  const connection = await pageConnection();
  const analytics = await viewTeamAnalytics(await getDb(), requestContext(user, await headers()), {
    connectionId: connection.id,
    period: parsed.value.period,
    timeZone,
    format: "page",
  });
  return <TeamView analytics={analytics} connection={connection.id} />;
}
