import { headers } from "next/headers";

import { AuditLog, type AuditView } from "@/components/audit-trail/audit-log";
import { CpfSearchMissesPanel } from "@/components/audit-trail/cpf-search-misses";
import { serverErrorOf } from "@/lib/api/errors";
import { actionChoices } from "@/lib/audit-trail/action-names";
import { auditParamsFromSearchParams, compactFilters, parseAuditFilters } from "@/lib/audit-trail/filters";
import { requestContext } from "@/lib/audit-trail/server";
import { distinctActions } from "@/lib/audit-trail/server/query";
import { cpfSearchMisses } from "@/lib/audit-trail/server/search-misses";
import { viewAuditLog } from "@/lib/audit-trail/server/service";
import { hasPermission } from "@/lib/auth/permissions";
import { config } from "@/lib/config";
import { requireConnectionPageUser } from "@/lib/connections/server/page";
import { allConnectionRows } from "@/lib/connections/server/store";
import { getDb } from "@/lib/db/client";
import { ClientMessages } from "@/lib/i18n/client-messages";
import { toUrlSearchParams, type PageSearchParams } from "@/lib/shared/page-search-params";

// /admin/audit: the first page is read here (the same function as GET /api/audit, so this view is audited too) and
// drawn on the server; filters ask the server for the next view, older pages and a search by CPF go through the
// route handler (components/audit-trail/audit-log.tsx).
export default async function AuditLogPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const user = await requireConnectionPageUser("audit.read");
  const params = toUrlSearchParams(await searchParams);
  const parsed = parseAuditFilters(auditParamsFromSearchParams(params));
  const seesCoaf = hasPermission(user, "coaf.report");
  const db = await getDb();
  let answer: AuditView["answer"] = null;
  if (parsed.ok) {
    try {
      const filters = compactFilters(parsed.value);
      answer = { page: await viewAuditLog(db, requestContext(user, await headers()), { filters, seesCoaf }) };
    } catch (error) {
      // Shown as GET /api/audit would have answered it, with its retry.
      answer = { error: serverErrorOf(error) };
    }
  }
  // The names the dashboard writes, plus any older name already on the trail.
  const actions = actionChoices(await distinctActions(db).catch(() => []), { coaf: seesCoaf });
  const connections = (await allConnectionRows(db)).map(({ id, name }) => ({ id, name }));
  // Members whose CPF searches keep missing: shown above the trail, read from it (never blocks the page).
  const { alert, windowHours } = config().cpfSearchMisses;
  const misses = await cpfSearchMisses(db, { windowHours, alert }).catch(() => []);
  return (
    <ClientMessages namespaces={["audit", "verifications.errors"]}>
      <AuditLog
        view={{ parsed, query: params.toString(), answer }}
        path="/admin/audit"
        actions={actions}
        connections={connections}
        notice={<CpfSearchMissesPanel rows={misses} alert={alert} windowHours={windowHours} />}
      />
    </ClientMessages>
  );
}
