import { QueryClient } from "@tanstack/react-query";

import { HydratedClient } from "@/components/layout/hydrated-client";
import { config } from "@/lib/config";
import { requireConnectionPageUser } from "@/lib/connections/server/page";
import { getDb } from "@/lib/db/client";
import { pageTitle } from "@/lib/i18n/page-title";
import { listRoles } from "@/lib/roles/server/roles";
import { staffKeys, type StaffListResponse } from "@/lib/staff/hooks";
import { listStaffWithSignInState } from "@/lib/staff/server/staff";

import { StaffPageClient } from "./page-client";

export const dynamic = "force-dynamic";

export const generateMetadata = pageTitle("staff");

// Staff accounts (admin): the list is read here through the same query the API uses, then hydrated.
export default async function StaffPage() {
  const user = await requireConnectionPageUser("staff.manage");
  const queryClient = new QueryClient();
  await queryClient.prefetchQuery({
    queryKey: staffKeys.list(),
    queryFn: async (): Promise<StaffListResponse> => ({ staff: await listStaffWithSignInState(await getDb()) }),
  });
  // The invitation and the role picker offer the live custom roles too (a staff manager need not hold roles.manage to give one).
  const customRoles = (await listRoles(await getDb()))
    .filter((role) => !role.builtIn)
    .map(({ id, name, permissions }) => ({ id, name, permissions }));
  return (
    <HydratedClient queryClient={queryClient} namespaces={["staff", "errors", "common.retry", "common.loading"]}>
      <StaffPageClient currentUserId={user.id} customRoles={customRoles} ssoConfigured={config().oidc !== undefined} />
    </HydratedClient>
  );
}
