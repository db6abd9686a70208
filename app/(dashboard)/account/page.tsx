import { QueryClient } from "@tanstack/react-query";

import { HydratedClient } from "@/components/layout/hydrated-client";
import { accountKeys } from "@/lib/account/hooks";
import { factorsOverview } from "@/lib/account/server/factors-overview";
import { ownSessions } from "@/lib/account/server/sessions";
import type { SessionsResponse } from "@/lib/account/types";
import { requireConnectionPageUser } from "@/lib/connections/server/page";
import { getDb } from "@/lib/db/client";
import { pageTitle } from "@/lib/i18n/page-title";

import { AccountPageClient } from "./page-client";

export const dynamic = "force-dynamic";

export const generateMetadata = pageTitle("account");

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

// The member's own account and security: second factors and sessions. Also the enrolment page a session is
// held on while the policy requires a factor the member does not have yet (`?enrol=1`). The factors and the
// sessions are read here through the same functions as their GET routes, then hydrated: the first paint is whole.
export default async function AccountPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireConnectionPageUser("signed_in", { during: ["enrolment"] });
  const asked = (await searchParams).enrol === "1";
  const enrolling = user.awaiting === "enrolment";
  const queryClient = new QueryClient();
  const db = await getDb();
  await queryClient.prefetchQuery({ queryKey: accountKeys.factors(), queryFn: () => factorsOverview(db, user) });
  if (!enrolling) {
    await queryClient.prefetchQuery({
      queryKey: accountKeys.sessions(),
      queryFn: async (): Promise<SessionsResponse> => ({
        sessions: (await ownSessions(db, user)).map((session) => ({ ...session, current: session.current ?? false })),
      }),
    });
  }
  return (
    <HydratedClient queryClient={queryClient} namespaces={["account", "common.copy", "common.retry", "common.loading"]}>
      <AccountPageClient enrolling={enrolling} asked={asked} />
    </HydratedClient>
  );
}
