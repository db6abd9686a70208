import { inArray } from "drizzle-orm";
import { expect, it } from "vitest";

import { casePriority, FLAG_POINTS } from "@/lib/cases/priority";
import { verificationEvents } from "@/lib/webhooks/server/tables";
import { caseSuite } from "@/test/case-suite";
import { describeEachDatabase } from "@/test/db";

import { priorityScoreSql, REVERIFICATION_WAITING } from "./priority-sql";
import { caseReverifications, cases } from "./tables";

/*
 * The queue sorts by the SQL form of the priority and shows the TypeScript one: both are run here over every flag,
 * each band of time left to due (and its edges), and each state of a re-verification, and must agree.
 */

const HOUR = 3_600_000;

describeEachDatabase("the priority in SQL on $name", ({ open }) => {
  const { handle } = caseSuite({ open });

  it("scores every combination of flags, time left and re-verification as lib/cases/priority.ts does", async () => {
    const now = new Date("2026-11-29T12:00:00Z");
    const flagSets = [[], ...Object.keys(FLAG_POINTS).map((flag) => [flag]), ["pep", "restrictive_list", "deceased"], ["unknown"]];
    const hoursLeft = [-200, -1, -0.001, 0, 1, 1.999, 2, 5, 8, 30];
    const rows = flagSets.flatMap((flags, f) =>
      hoursLeft.map((hours, h) => ({
        publicId: `prio-${process.pid}-${f}-${h}`,
        upstreamStatus: "review",
        flags,
        dueAt: new Date(now.getTime() + hours * HOUR),
      })),
    );
    const inserted = await handle.db.insert(cases).values(rows).returning({ id: cases.id, publicId: cases.publicId });
    // Re-verifications: one unknown to the dashboard (waiting), one whose event says started (waiting), one
    // finished by its own case (approved: not waiting), and a case whose latest one is finished after one that was not.
    const [unknown, started, finished, later] = inserted;
    const ask = (caseId: string, publicId: string, minutes: number) => ({
      caseId,
      publicId,
      refId: publicId,
      requestedAt: new Date(now.getTime() - minutes * 60_000),
    });
    await handle.db
      .insert(caseReverifications)
      .values([
        ask(unknown!.id, `re-unknown-${process.pid}`, 10),
        ask(started!.id, `re-started-${process.pid}`, 10),
        ask(finished!.id, inserted[20]!.publicId, 10),
        ask(later!.id, `re-old-${process.pid}`, 20),
        ask(later!.id, inserted[21]!.publicId, 10),
      ]);
    await handle.db
      .update(cases)
      .set({ upstreamStatus: "approved" })
      .where(inArray(cases.publicId, [inserted[20]!.publicId, inserted[21]!.publicId]));
    await handle.db.insert(verificationEvents).values({
      eventKey: `re-started-${process.pid}`,
      publicId: `re-started-${process.pid}`,
      event: "verification.status_changed",
      status: "started",
      occurredAt: now,
      deliveryId: "d-1",
    });

    const scored = await handle.db
      .select({
        publicId: cases.publicId,
        flags: cases.flags,
        dueAt: cases.dueAt,
        score: priorityScoreSql(now),
        waiting: REVERIFICATION_WAITING,
      })
      .from(cases)
      .where(
        inArray(
          cases.publicId,
          rows.map((row) => row.publicId),
        ),
      );
    expect(scored).toHaveLength(rows.length);
    const waiting = new Set(scored.filter((row) => row.waiting).map((row) => row.publicId));
    expect(waiting).toEqual(new Set([unknown!.publicId, started!.publicId]));
    for (const row of scored) {
      const expected = casePriority(
        { flags: row.flags, dueAt: row.dueAt, reverificationWaiting: Boolean(row.waiting) },
        now.getTime(),
      ).score;
      expect({ publicId: row.publicId, score: Number(row.score) }).toEqual({ publicId: row.publicId, score: expected });
    }
    // The edges were crossed: some rows score each band.
    expect(new Set(scored.map((row) => Number(row.score))).size).toBeGreaterThan(10);
  });
});
