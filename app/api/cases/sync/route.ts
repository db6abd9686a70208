import { json, route } from "@/lib/api/route";
import { auditedAction } from "@/lib/audit-trail/server";
import { runCaseSync } from "@/lib/cases/server/schedule";

// POST /api/cases/sync – pages through the upstream review list now (admins). Reads upstream only, but it
// can open and close many cases, so its intent goes on the trail first. Refused politely while another
// instance holds the sync lease (`ran: false`).
export const POST = route({ permission: "cases.assign" }, async ({ context }) => {
  const report = await auditedAction(
    context,
    {
      action: "case.sync",
      detailsOf: (result) => ({
        ran: result.ran,
        seen: result.seen,
        opened: result.opened,
        closed: result.closed,
        calls: result.upstreamCalls,
      }),
    },
    () => runCaseSync({ scheduled: false }),
  );
  return json(report);
});
