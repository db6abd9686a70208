import { headers } from "next/headers";

import { VerificationList, type ListView } from "@/components/verifications/verification-list";
import { SaveViewDialog } from "@/components/views/save-view-dialog";
import { serverErrorOf } from "@/lib/api/errors";
import { requestContext } from "@/lib/audit-trail/server";
import { config } from "@/lib/config";
import { requireConnectionPageUser, withPageUpstream } from "@/lib/connections/server/page";
import { ClientMessages } from "@/lib/i18n/client-messages";
import { toUrlSearchParams, type PageSearchParams } from "@/lib/shared/page-search-params";
import { parseListQuery } from "@/lib/verifications/list-query";
import { viewVerificationList } from "@/lib/verifications/server/list-view";

// /verifications: the view is read here (the same function as GET /api/verifications) and drawn on the server; its
// filters, sort and pages ask the server for the next view (components/verifications/list-navigation.tsx).
export default async function VerificationsPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const user = await requireConnectionPageUser("verifications.read");
  const params = toUrlSearchParams(await searchParams);
  const parsed = parseListQuery(params);
  let answer: ListView["answer"] = null;
  // A refused query is named and nothing is fetched.
  if (parsed.ok) {
    try {
      const data = await withPageUpstream("page /verifications", async () =>
        viewVerificationList(requestContext(user, await headers()), user, parsed.filters),
      );
      answer = { data };
    } catch (error) {
      // Shown as GET /api/verifications would have answered it (IP not allowed, timeout with retry…).
      answer = { error: serverErrorOf(error) };
    }
  }
  return (
    <ClientMessages
      namespaces={[
        "verifications.list",
        "verifications.filters",
        "verifications.status",
        "verifications.pagination",
        "verifications.export",
        "verifications.create",
        "verifications.errors",
        "views.save",
        "verifications.flows",
        "verifications.journeys",
        "events.live",
        // A row's link says it is loading while the detail opens (components/ui/link-pending.tsx).
        "common.loading",
      ]}
    >
      <VerificationList
        view={{ parsed, query: params.toString(), answer }}
        path="/verifications"
        maxPerPage={config().core.maxPerPage}
        actions={<SaveViewDialog scope="verifications" />}
      />
    </ClientMessages>
  );
}
