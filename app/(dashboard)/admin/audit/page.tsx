import { QueryClient, type InfiniteData } from "@tanstack/react-query";
import { headers } from "next/headers";

import { CpfSearchMissesPanel } from "@/components/audit-trail/cpf-search-misses";
import { HydratedClient } from "@/components/layout/hydrated-client";
import { serverErrorOf } from "@/lib/api/errors";
import { actionChoices } from "@/lib/audit-trail/action-names";
import { auditParamsFromSearchParams, compactFilters, parseAuditFilters } from "@/lib/audit-trail/filters";
import { auditKeys } from "@/lib/audit-trail/hooks";
import { requestContext } from "@/lib/audit-trail/server";
import { distinctActions } from "@/lib/audit-trail/server/query";
import { cpfSearchMisses } from "@/lib/audit-trail/server/search-misses";
import { viewAuditLog } from "@/lib/audit-trail/server/service";
import type { AuditPage } from "@/lib/audit-trail/types";
import { hasPermission } from "@/lib/auth/permissions";
import { config } from "@/lib/config";
import { requireConnectionPageUser } from "@/lib/connections/server/page";
import { allConnectionRows } from "@/lib/connections/server/store";
import { getDb } from "@/lib/db/client";
import type { ServerError } from "@/lib/shared/api-client/server-error";
import { toUrlSearchParams, type PageSearchParams } from "@/lib/shared/page-search-params";

import { AuditPageClient } from "./page-client";

// /admin/audit: the first page is read here (the same function as GET /api/audit, so this view is audited
// too) and handed to react-query; filter changes and older pages go through the route handler.
export default async function AuditLogPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const user = await requireConnectionPageUser("audit.read");
  const parsed = parseAuditFilters(auditParamsFromSearchParams(toUrlSearchParams(await searchParams)));
  const queryClient = new QueryClient();
  const seesCoaf = hasPermission(user, "coaf.report");
  const db = await getDb();
  let serverError: ServerError | null = null;
  if (parsed.ok) {
    const filters = compactFilters(parsed.value);
    try {
      const page = await viewAuditLog(db, requestContext(user, await headers()), { filters, seesCoaf });
      queryClient.setQueryData<InfiniteData<AuditPage, string | null>>(auditKeys.list(filters, null), {
        pages: [page],
        pageParams: [null],
      });
    } catch (error) {
      // Shown by the client as GET /api/audit would have answered it, with no second fetch until the retry.
      serverError = serverErrorOf(error);
    }
  }
  // The names the dashboard writes, plus any older name already on the trail.
  const actions = actionChoices(await distinctActions(db).catch(() => []), { coaf: seesCoaf });
  const connections = (await allConnectionRows(db)).map(({ id, name }) => ({ id, name }));
  // Members whose CPF searches keep missing: shown above the trail, read from it (never blocks the page).
  const { alert, windowHours } = config().cpfSearchMisses;
  const misses = await cpfSearchMisses(db, { windowHours, alert }).catch(() => []);
  return (
    <HydratedClient queryClient={queryClient} namespaces={["audit"]}>
      <AuditPageClient
        actions={actions}
        connections={connections}
        serverError={serverError}
        notice={<CpfSearchMissesPanel rows={misses} alert={alert} windowHours={windowHours} />}
      />
    </HydratedClient>
  );
}
