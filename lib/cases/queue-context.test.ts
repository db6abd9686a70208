import { describe, expect, it } from "vitest";

import { caseHref, cleanQueueContext, queueContextQuery, queueHref } from "./queue-context";

describe("queue context", () => {
  it("keeps the queue's tab, filters and sort, never its page or anything else, through the case page and back", () => {
    const context = queueContextQuery({ queue: "unassigned", sort: "due", flag: "restrictive_list", page: 3, per_page: 20 });
    expect(context).toBe("queue=unassigned&sort=due&flag=restrictive_list");
    const href = caseHref("ver-1", context);
    expect(href).toBe("/verifications/ver-1?cases=queue%3Dunassigned%26sort%3Ddue%26flag%3Drestrictive_list");
    const carried = new URL(href, "http://x").searchParams.get("cases") ?? "";
    expect(queueHref(cleanQueueContext(carried))).toBe("/cases?queue=unassigned&sort=due&flag=restrictive_list");
    expect(cleanQueueContext("queue=open&cpf=52998224725&page=2")).toBe("queue=open");
    expect(caseHref("ver-1", "")).toBe("/verifications/ver-1");
    expect(queueHref("")).toBe("/cases");
  });
});
