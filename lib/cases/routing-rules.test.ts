import { describe, expect, it } from "vitest";

import { DEFAULT_QUEUE, routeCase } from "./routing-rules";
import { bulkSchema, routingConfigSchema } from "./routing-validation";

const now = new Date("2026-03-11T18:00:00Z");
const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000);
const Q1 = "11111111-1111-4111-8111-111111111111";
const Q2 = "22222222-2222-4222-8222-222222222222";
const Q3 = "33333333-3333-4333-8333-333333333333";

describe("routeCase", () => {
  const rules = [
    { queueId: Q1, conditions: { flags: ["pep", "restrictive_list"] } },
    { queueId: Q2, conditions: { flows: ["kyc-faceindex"], minRisk: 60 } },
    { queueId: Q3, conditions: { journeys: ["onboarding"], minAgeHours: 48 } },
  ];

  it("takes the first matching rule, in order, else the default queue", () => {
    expect(routeCase({ flags: ["pep"], flow: "kyc-faceindex", riskScore: 90, openedAt: now }, rules, now)).toBe(Q1);
    expect(routeCase({ flags: [], flow: "kyc-faceindex", riskScore: 60, openedAt: now }, rules, now)).toBe(Q2);
    expect(routeCase({ flags: [], flow: "kyc-faceindex", riskScore: 59, openedAt: now }, rules, now)).toBe(DEFAULT_QUEUE);
    expect(routeCase({ flags: [], journey: "onboarding", openedAt: hoursAgo(48) }, rules, now)).toBe(Q3);
    expect(routeCase({ flags: [], journey: "onboarding", openedAt: hoursAgo(47) }, rules, now)).toBe(DEFAULT_QUEUE);
    expect(routeCase({ flags: [], openedAt: now }, [], now)).toBe(DEFAULT_QUEUE);
  });

  it("never guesses an unknown flow, journey or risk score to match; an empty rule matches every case", () => {
    expect(routeCase({ flags: [], flow: null, riskScore: null, openedAt: now }, rules, now)).toBe(DEFAULT_QUEUE);
    expect(routeCase({ flags: [], openedAt: now }, [{ queueId: Q2, conditions: { minRisk: 0 } }], now)).toBe(DEFAULT_QUEUE);
    expect(routeCase({ flags: [], openedAt: now }, [{ queueId: Q2, conditions: {} }], now)).toBe(Q2);
  });
});

describe("routing and bulk input", () => {
  const valid = {
    autoAssign: false,
    capacity: 5,
    queues: [{ id: DEFAULT_QUEUE, name: "General", members: [] }],
    rules: [],
  };
  const fields = (result: { error?: { issues: Array<{ path: PropertyKey[] }> } }) =>
    result.error?.issues.map((issue) => issue.path.join(".")) ?? [];

  it("names each bad field of a routing configuration", () => {
    expect(routingConfigSchema.safeParse(valid).success).toBe(true);
    expect(fields(routingConfigSchema.safeParse({ ...valid, capacity: 0 }))).toEqual(["capacity"]);
    expect(
      fields(
        routingConfigSchema.safeParse({
          ...valid,
          queues: [
            ...valid.queues,
            {
              id: Q1,
              name: "general",
              members: [
                { userId: Q2, lead: true },
                { userId: Q2, lead: false },
              ],
            },
          ],
          rules: [
            { queueId: Q3, conditions: { flags: ["pep"] } },
            { queueId: Q1, conditions: { minRisk: 50 } },
          ],
        }),
      ),
    ).toEqual(["queues.1.name", "queues.1.members.1.userId", "rules.0.queueId"]);
    expect(
      fields(routingConfigSchema.safeParse({ ...valid, rules: [{ queueId: DEFAULT_QUEUE, conditions: { flags: ["nope"] } }] })),
    ).toEqual(["rules.0.conditions.flags.0"]);
    expect(fields(routingConfigSchema.safeParse({ ...valid, extra: 1 }))).toEqual([""]);
  });

  it("refuses a queue name or matched word with invisible or text-direction characters, naming the field", () => {
    for (const name of ["Geral\u202E", "Ge\u200Bral", "Geral\u00AD", "Geral\uFE0F", "Geral\u{E0041}"]) {
      expect(fields(routingConfigSchema.safeParse({ ...valid, queues: [{ ...valid.queues[0]!, name }] })), JSON.stringify(name)).toEqual([
        "queues.0.name",
      ]);
    }
    const rule = { queueId: DEFAULT_QUEUE, conditions: { flows: ["kyc\u2066x"], journeys: ["ok", "on\u200Dboarding"] } };
    expect(fields(routingConfigSchema.safeParse({ ...valid, rules: [rule] }))).toEqual([
      "rules.0.conditions.flows.0",
      "rules.0.conditions.journeys.1",
    ]);
  });

  it("bulk: at most 100 cases, the assignee or queue its action needs", () => {
    expect(fields(bulkSchema.safeParse({ action: "assign", publicIds: ["a"] }))).toEqual(["assignee"]);
    expect(fields(bulkSchema.safeParse({ action: "move", publicIds: ["a"] }))).toEqual(["queue"]);
    expect(fields(bulkSchema.safeParse({ action: "unassign", publicIds: Array.from({ length: 101 }, (_, i) => `v${i}`) }))).toEqual([
      "publicIds",
    ]);
    expect(bulkSchema.safeParse({ action: "unassign", publicIds: ["a", "b"] }).success).toBe(true);
  });
});
