import { QueryClient } from "@tanstack/react-query";
import { headers } from "next/headers";

import { HydratedClient } from "@/components/layout/hydrated-client";
import { serverErrorOf } from "@/lib/api/errors";
import { requestContext } from "@/lib/audit-trail/server";
import { config } from "@/lib/config";
import { requireConnectionPageUser, withPageUpstream } from "@/lib/connections/server/page";
import type { ServerError } from "@/lib/shared/api-client/server-error";
import { toUrlSearchParams, type PageSearchParams } from "@/lib/shared/page-search-params";
import { verificationKeys } from "@/lib/verifications/hooks";
import { parseVerificationFilters } from "@/lib/verifications/rules";
import { viewVerificationList } from "@/lib/verifications/server/list-view";
import { splitListQuery } from "@/lib/verifications/sorting";

import { VerificationsPageClient } from "./page-client";

// /verifications: the first page is fetched here (same function as GET /api/verifications) and handed
// to react-query; filter changes later go through the route handler.
export default async function VerificationsPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const user = await requireConnectionPageUser("verifications.read");
  // The on-screen sort is not a filter: it is never sent upstream (lib/verifications/sorting.ts).
  const split = splitListQuery(toUrlSearchParams(await searchParams));
  const parsed = parseVerificationFilters(split.filterParams);
  const queryClient = new QueryClient();
  let serverError: ServerError | null = null;
  // A refused sort: the client names it and nothing is fetched.
  if (parsed.ok && !split.sortInvalid) {
    try {
      const data = await withPageUpstream("page /verifications", async () =>
        viewVerificationList(requestContext(user, await headers()), user, parsed.filters),
      );
      queryClient.setQueryData(verificationKeys.list(parsed.filters), data);
    } catch (error) {
      // Shown by the client as GET /api/verifications would have answered it (IP not allowed, timeout with
      // retry…), with no second fetch until the retry button.
      serverError = serverErrorOf(error);
    }
  }
  return (
    <HydratedClient
      queryClient={queryClient}
      namespaces={[
        "verifications.list",
        "verifications.filters",
        "verifications.status",
        "verifications.steps",
        "verifications.table",
        "verifications.pagination",
        "verifications.export",
        "verifications.create",
        "verifications.errors",
        "views.save",
        "verifications.flows",
        "verifications.journeys",
        "verifications.notices",
        "events.live",
        // A row's link says it is loading while the detail opens (components/ui/link-pending.tsx).
        "common.loading",
      ]}
    >
      <VerificationsPageClient maxPerPage={config().core.maxPerPage} serverError={serverError} />
    </HydratedClient>
  );
}
