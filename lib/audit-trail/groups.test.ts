import { describe, expect, it } from "vitest";

import { groupAuditEvents } from "./groups";
import type { AuditEventView } from "./types";

let nextId = 100;
function event(action: string, overrides: Partial<AuditEventView> = {}, pageView: string | null = "aaaaaaaaaaaaaaaaaaaa"): AuditEventView {
  nextId -= 1;
  return {
    id: nextId,
    at: new Date(Date.UTC(2026, 0, 1, 12, 0, 100 - nextId)).toISOString(),
    actorId: "0b5f4f4e-4a59-4c39-9c5a-2d1d7f0d1a11",
    actorEmail: "ana@example.com",
    action,
    targetType: "verification",
    target: "ver_1",
    purpose: null,
    outcome: "success",
    ip: "127.0.0.1",
    details: pageView ? { pageView } : {},
    connectionId: null,
    ...overrides,
  };
}

describe("groupAuditEvents", () => {
  it("groups the consecutive events of one actor's page view and names the case it opened", () => {
    // Newest first, as the page shows them.
    const events = [
      event("verification.media"),
      event("case.view"),
      event("verification.events"),
      event("verification.view"),
      event("case.list", { targetType: null, target: null }, "bbbbbbbbbbbbbbbbbbbb"),
    ];
    const groups = groupAuditEvents(events);
    expect(groups.map((group) => group.events.length)).toEqual([4, 1]);
    expect(groups[0]!.opened).toBe("ver_1");
    expect(groups[0]!.key).toBe(events[0]!.id);
    expect(groups[1]!.opened).toBeNull();
  });

  it("never groups another actor, events without a page view, or across an event in between", () => {
    const events = [
      event("verification.media"),
      event("verification.view", { actorId: "5c7e3d0e-8f63-4c2b-a1a0-7d5d6a1f9b22", actorEmail: "bia@example.com" }),
      event("case.view"),
      event("case.list", {}, null),
      event("overview.view", {}, null),
    ];
    expect(groupAuditEvents(events).map((group) => group.events.length)).toEqual([1, 1, 1, 1, 1]);
  });
});
