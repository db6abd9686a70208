import { RoutingEditor } from "@/components/cases/routing-editor";
import { TakeModeSettings } from "@/components/cases/take-mode-settings";
import { TeamTemplatesIsland } from "@/components/cases/team-templates-island";
import { ScreeningSettings } from "@/components/monitoring/screening-settings";
import { readTakeSettings } from "@/lib/cases/server/case-settings";
import { readRouting } from "@/lib/cases/server/routing";
import { config } from "@/lib/config";
import { requireConnectionPageUser } from "@/lib/connections/server/page";
import { getDb } from "@/lib/db/client";
import { ClientMessages } from "@/lib/i18n/client-messages";
import { pageTitle } from "@/lib/i18n/page-title";
import { readBudget } from "@/lib/monitoring/server/settings";

export const dynamic = "force-dynamic";

export const generateMetadata = pageTitle("cases.routing");

// /admin/cases (cases.assign): the team's queues, routing rules and auto-assignment, read here through the same
// function as GET /api/cases/routing and drawn on the server with the editors' starting state; saving goes through
// PUT /api/cases/routing and the page is drawn again. How a member takes a case (PUT /api/cases/settings) sits below,
// saved on its own, then the team's templates (loaded after the page) and the ongoing screening's daily budget
// (PUT /api/monitoring/settings) with a run now (POST /api/monitoring/run). No client data cache on the first load.
export default async function CaseRoutingPage() {
  await requireConnectionPageUser("cases.assign");
  const db = await getDb();
  const [routing, settings, budget] = await Promise.all([readRouting(db), readTakeSettings(db), readBudget(db, config().displayTimeZone)]);
  return (
    <ClientMessages
      namespaces={[
        "cases.routing",
        "cases.flags",
        "cases.templates",
        "cases.recommendation",
        "common.retry",
        "common.loading",
        "monitoring",
      ]}
    >
      <div className="space-y-8">
        <div className="space-y-6">
          <RoutingEditor config={routing} />
          <TakeModeSettings initial={settings.takeMode} />
        </div>
        <TeamTemplatesIsland />
        <ScreeningSettings budget={budget} />
      </div>
    </ClientMessages>
  );
}
