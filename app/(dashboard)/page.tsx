import { headers } from "next/headers";

import { OverviewView } from "@/components/overview/overview-view";
import { PeriodForm } from "@/components/overview/period-form";
import { RefusedPeriod } from "@/components/ui/refused-period";
import { audited, requestContext } from "@/lib/audit-trail/server";
import { hasPermission } from "@/lib/auth/server/require-role";
import { config } from "@/lib/config";
import { requireConnectionPageUser, withPageUpstream } from "@/lib/connections/server/page";
import { getDb } from "@/lib/db/client";
import { parseOverviewPeriod, todayIn } from "@/lib/overview/period";
import { loadOverview, overviewAuditDetails } from "@/lib/overview/server/overview";
import { toUrlSearchParams, type PageSearchParams } from "@/lib/shared/page-search-params";

// `/`: the overview, drawn entirely on the server (charts as SVG, no client JavaScript of its own). The
// view is audited as a read of aggregate numbers: the period and which panels answered, nothing personal.
export default async function OverviewPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const user = await requireConnectionPageUser("verifications.read");
  const cfg = config();
  const params = toUrlSearchParams(await searchParams);
  const parsed = parseOverviewPeriod(params, todayIn(cfg.displayTimeZone));

  if (!parsed.ok) {
    // Refused before any call: each parameter named, the form kept, a way back to the default period.
    return (
      <RefusedPeriod namespace="overview" clearHref="/" problems={parsed.problems}>
        <PeriodForm
          from={params.get("from") ?? undefined}
          to={params.get("to") ?? undefined}
          preset={null}
          timeZone={cfg.displayTimeZone}
        />
      </RefusedPeriod>
    );
  }

  const db = await getDb();
  const overview = await audited(requestContext(user, await headers()), { action: "overview.view", detailsOf: overviewAuditDetails }, () =>
    // Counted as this page's calls (lib/upstream/call-count.ts): a page has no route kit to name it.
    withPageUpstream("page /", () => loadOverview(parsed.period, { db, cfg })),
  );
  return <OverviewView overview={overview} timeZone={cfg.displayTimeZone} linkToAudit={hasPermission(user, "audit.read")} />;
}
