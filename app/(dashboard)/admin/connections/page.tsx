import { QueryClient } from "@tanstack/react-query";

import { ConnectionList } from "@/components/connections/connection-list";
import { HydratedClient } from "@/components/layout/hydrated-client";
import { connectionKeys } from "@/lib/connections/hooks";
import { pageConnection, requireConnectionPageUser } from "@/lib/connections/server/page";
import { allConnectionRows, summaryOf } from "@/lib/connections/server/store";
import { getDb } from "@/lib/db/client";
import { pageTitle } from "@/lib/i18n/page-title";

export const generateMetadata = pageTitle("connections");

// /admin/connections – the service's keys (integrations.manage): every connection, retired ones too, prefetched here.
export default async function Page() {
  await requireConnectionPageUser("integrations.manage");
  const [current, rows] = await Promise.all([pageConnection(), getDb().then(allConnectionRows)]);
  const queryClient = new QueryClient();
  queryClient.setQueryData(connectionKeys.list(), { connections: rows.map((row) => summaryOf(row, current.id)) });
  return (
    <HydratedClient queryClient={queryClient} namespaces={["connections", "errors"]}>
      <ConnectionList />
    </HydratedClient>
  );
}
