import { describe, expect, it } from "vitest";

import { casePriority, comparePriority, DUE_POINTS, FLAG_POINTS, priorityLevel, REVERIFICATION_WAITING_POINTS } from "./priority";

/*
 * The queue's priority: each factor's points, the reasons said in weight order, the overdue case (ranked by the
 * other factors, then by how overdue), and the order the queue sorts by.
 */

const NOW = Date.parse("2026-11-29T12:00:00Z");
const HOUR = 3_600_000;
const dueIn = (hours: number) => new Date(NOW + hours * HOUR).toISOString();
const input = (patch: Partial<Parameters<typeof casePriority>[0]> = {}) => ({
  flags: [] as string[],
  dueAt: dueIn(48),
  reverificationWaiting: false,
  ...patch,
});

describe("casePriority: each factor", () => {
  it("a case with nothing pressing scores nothing and says so with no reason", () => {
    expect(casePriority(input(), NOW)).toEqual({ score: 0, level: "normal", reasons: [] });
  });

  it.each(Object.entries(FLAG_POINTS))("the red flag %s adds its points and is its reason", (flag, points) => {
    expect(casePriority(input({ flags: [flag] }), NOW)).toMatchObject({ score: points, reasons: [{ kind: "flag", flag }] });
  });

  it("flags add up, the weightiest said first; a flag the priority does not know adds nothing", () => {
    const priority = casePriority(input({ flags: ["high_risk", "pep", "restrictive_list", "unknown"] }), NOW);
    expect(priority.score).toBe(FLAG_POINTS.high_risk + FLAG_POINTS.pep + FLAG_POINTS.restrictive_list);
    expect(priority.reasons).toEqual([
      { kind: "flag", flag: "restrictive_list" },
      { kind: "flag", flag: "pep" },
      { kind: "flag", flag: "high_risk" },
    ]);
  });

  it("the time left to due: overdue, within 2 h, within 8 h, later", () => {
    expect(casePriority(input({ dueAt: dueIn(-3.5) }), NOW)).toMatchObject({
      score: DUE_POINTS[0].points,
      reasons: [{ kind: "overdue", hours: 3 }],
    });
    expect(casePriority(input({ dueAt: dueIn(1.2) }), NOW)).toMatchObject({
      score: DUE_POINTS[1].points,
      reasons: [{ kind: "due", hours: 2 }],
    });
    expect(casePriority(input({ dueAt: dueIn(7) }), NOW)).toMatchObject({
      score: DUE_POINTS[2].points,
      reasons: [{ kind: "due", hours: 7 }],
    });
    expect(casePriority(input({ dueAt: dueIn(8) }), NOW)).toMatchObject({ score: 0, reasons: [] });
  });

  it("a re-verification the person has not finished parks the case below the work that can be done", () => {
    const waiting = casePriority(input({ flags: ["pep"], dueAt: dueIn(-1), reverificationWaiting: true }), NOW);
    expect(waiting.score).toBe(FLAG_POINTS.pep + DUE_POINTS[0].points + REVERIFICATION_WAITING_POINTS);
    expect(waiting.reasons.at(-1)).toEqual({ kind: "reverification" });
    expect(waiting.score).toBeLessThan(casePriority(input(), NOW).score);
  });

  it("the level follows the score", () => {
    expect([priorityLevel(9), priorityLevel(8), priorityLevel(4), priorityLevel(3), priorityLevel(-10)]).toEqual([
      "high",
      "high",
      "medium",
      "normal",
      "normal",
    ]);
    // A plain overdue case is not high: overdue alone is no longer "High" on every row.
    expect(casePriority(input({ dueAt: dueIn(-30) }), NOW).level).toBe("medium");
  });
});

describe("comparePriority: the queue's order", () => {
  const ordered = (cases: Array<ReturnType<typeof input> & { id: string }>) =>
    [...cases].sort((a, b) => comparePriority(a, b, NOW)).map((item) => item.id);

  it("when every case is overdue, the flags decide first, then how overdue", () => {
    expect(
      ordered([
        { ...input({ dueAt: dueIn(-50) }), id: "plain-very-late" },
        { ...input({ dueAt: dueIn(-1), flags: ["pep"] }), id: "pep-just-late" },
        { ...input({ dueAt: dueIn(-2) }), id: "plain-late" },
        { ...input({ dueAt: dueIn(-1), flags: ["restrictive_list"] }), id: "list-late" },
      ]),
    ).toEqual(["list-late", "pep-just-late", "plain-very-late", "plain-late"]);
  });

  it("a flagged case due soon comes before a plain overdue one; a waiting re-verification comes last", () => {
    expect(
      ordered([
        { ...input({ dueAt: dueIn(-5) }), id: "plain-overdue" },
        { ...input({ dueAt: dueIn(1), flags: ["pep"] }), id: "pep-soon" },
        { ...input({ dueAt: dueIn(-9), flags: ["restrictive_list"], reverificationWaiting: true }), id: "waiting" },
        { ...input({ dueAt: dueIn(30) }), id: "plain-later" },
      ]),
    ).toEqual(["pep-soon", "plain-overdue", "plain-later", "waiting"]);
  });

  it("equal scores and due times fall back to the id, so the order is total", () => {
    const same = { ...input({ dueAt: dueIn(-1) }) };
    expect(
      ordered([
        { ...same, id: "b" },
        { ...same, id: "a" },
      ]),
    ).toEqual(["a", "b"]);
  });
});
