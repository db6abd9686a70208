import { ConnectionList } from "@/components/connections/connection-list";
import { pageConnection, requireConnectionPageUser } from "@/lib/connections/server/page";
import { allConnectionRows, summaryOf } from "@/lib/connections/server/store";
import { getDb } from "@/lib/db/client";
import { ClientMessages } from "@/lib/i18n/client-messages";
import { pageTitle } from "@/lib/i18n/page-title";

export const generateMetadata = pageTitle("connections");

// /admin/connections – the service's keys (integrations.manage): every connection, retired ones too, drawn here on the
// server; the add, test, edit and retire buttons are islands whose requests have the page drawn again.
export default async function Page() {
  await requireConnectionPageUser("integrations.manage");
  const [current, rows] = await Promise.all([pageConnection(), getDb().then(allConnectionRows)]);
  return (
    <ClientMessages namespaces={["connections", "errors"]}>
      <ConnectionList connections={rows.map((row) => summaryOf(row, current.id))} />
    </ClientMessages>
  );
}
