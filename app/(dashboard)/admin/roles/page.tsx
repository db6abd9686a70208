import { QueryClient } from "@tanstack/react-query";
import { getLocale } from "next-intl/server";

import { HydratedClient } from "@/components/layout/hydrated-client";
import { requireConnectionPageUser } from "@/lib/connections/server/page";
import { getDb } from "@/lib/db/client";
import type { Locale } from "@/lib/i18n/locales";
import { pageTitle } from "@/lib/i18n/page-title";
import { roleKeys, type RoleListResponse } from "@/lib/roles/hooks";
import { permissionCatalogue } from "@/lib/roles/server/catalogue";
import { listRoles } from "@/lib/roles/server/roles";

import { RolesPageClient } from "./page-client";

export const dynamic = "force-dynamic";

export const generateMetadata = pageTitle("roles");

// Roles (roles.manage): the roles and the catalogue are read here through the same functions the API uses,
// then hydrated.
export default async function RolesPage() {
  await requireConnectionPageUser("roles.manage");
  const locale = (await getLocale()) as Locale;
  const queryClient = new QueryClient();
  await queryClient.prefetchQuery({
    queryKey: roleKeys.list(),
    queryFn: async (): Promise<RoleListResponse> => ({ roles: await listRoles(await getDb()) }),
  });
  queryClient.setQueryData(roleKeys.catalogue(), permissionCatalogue(locale));
  return (
    <HydratedClient queryClient={queryClient} namespaces={["roles", "common.retry", "common.loading"]}>
      <RolesPageClient />
    </HydratedClient>
  );
}
