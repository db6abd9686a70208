"use client";

import { AuditEventRows } from "@/components/audit-trail/audit-event-table";
import type { AuditPage } from "@/lib/audit-trail/types";

/*
 * The older pages' rows, drawn in the browser as the server drew the first page's (./audit-event-table.tsx), in a
 * body of their own after it. A page view whose events straddle two pages reads as two rows, one on each side.
 */
export default function AuditOlderRows({ pages }: { pages: AuditPage[] }) {
  const events = pages.flatMap((page) => page.events);
  const staff = Object.assign({}, ...pages.map((page) => page.staff));
  return <AuditEventRows events={events} staff={staff} className="max-md:mt-2" />;
}
