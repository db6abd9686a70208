import type { AgeBucket } from "@/lib/cases/rules";
import type { QueueQuery } from "@/lib/cases/validation";
import type { CaseFigures } from "@/lib/overview/cases";

/*
 * Links into the case queue that open exactly the cases a figure counts (the overview's backlog, SLA and
 * outcome numbers). Shared: no server imports; a test reads each link back through GET /api/cases's schema
 * and compares its total with the figure.
 */

type QueueLinkParams = Partial<Record<keyof QueueQuery, string>>;

export function caseQueueHref(params: QueueLinkParams): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) search.set(key, value);
  return `/cases?${search.toString()}`;
}

export const openCasesHref = () => caseQueueHref({ queue: "open", sort: "age" });
export const overdueCasesHref = () => caseQueueHref({ queue: "open", overdue: "true" });
export const casesOfAgeHref = (bucket: AgeBucket) => caseQueueHref({ queue: "open", sort: "age", age: bucket });

/** Closed in the overview's period; `late` (closed after the due time) and `disagreement` narrow it. */
export function closedCasesHref(range: CaseFigures["closedRange"], narrow: { late?: boolean; disagreement?: boolean } = {}): string {
  return caseQueueHref({
    queue: "closed",
    closed_from: range.from,
    closed_to: range.to,
    overdue: narrow.late ? "true" : undefined,
    disagreement: narrow.disagreement ? "true" : undefined,
  });
}
