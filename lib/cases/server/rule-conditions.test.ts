import { inArray, sql } from "drizzle-orm";
import { expect, it } from "vitest";

import {
  disagrees,
  EFFECTIVE_STATES,
  needsConfirmation,
  QUEUES,
  REASONS_BY_RECOMMENDATION,
  RECOMMENDATIONS,
  RED_FLAGS,
  stageOf,
  type CaseStage,
  type Queue,
} from "@/lib/cases/rules";
import { cases, OUTCOME_STATES } from "@/lib/cases/server/tables";
import { DECIDED_STATUSES } from "@/lib/upstream/model/verification";
import { makeStaff } from "@/test/cases";
import { describeEachDatabase, withDatabase, withTestEnvironment } from "@/test/db";

import { recordOutcome } from "./outcome";
import { queueCondition } from "./queue";
import { disagreesSql } from "./rule-conditions";

/*
 * The rules of lib/cases/rules.ts and their SQL (./rule-conditions.ts, ./queue.ts) over every combination: the
 * state an outcome is recorded in (four eyes) for each recommendation, set of red flags and earlier outcome state;
 * the queues each stage is listed in; the disagreement a final status finds.
 */

const FLAG_SETS: string[][] = Array.from({ length: 2 ** RED_FLAGS.length }, (_, bits) =>
  RED_FLAGS.filter((_, index) => bits & (2 ** index)),
);
const PRIOR_STATES = [null, ...OUTCOME_STATES];

/** The queues a case at this stage is listed in (the definitions in lib/cases/rules.ts, QUEUES). */
function listedIn(stage: CaseStage, assignee: "me" | "other" | null): Queue[] {
  const listed: Queue[] = [];
  const undecided = stage === "working" || stage === "confirming";
  if (undecided) listed.push("open");
  if (assignee === "me" && (undecided || stage === "escalated")) listed.push("mine");
  if (assignee === null && undecided) listed.push("unassigned");
  if (stage === "confirming") listed.push("confirming");
  if (stage === "escalated") listed.push("escalated");
  if (stage === "decided") listed.push("decided");
  if (stage === "closed") listed.push("closed");
  return listed;
}

describeEachDatabase("case rules and their SQL on $name", ({ name, open }) => {
  withTestEnvironment();
  const handle = withDatabase(open);

  let counter = 0;
  const publicIdOf = (label: string) => `rules-${name}-${Date.now()}-${(counter += 1)}-${label}`;
  const now = new Date();
  const due = new Date(now.getTime() + 3_600_000);

  // One test per recommendation: each records an outcome on every flag set after every earlier state, a few hundred
  // transactions; all four in one test ran past its time on a busy machine (a clean-clone CI run).
  it.each(RECOMMENDATIONS)(
    "four eyes: the state recordOutcome writes is needsConfirmation's, for %s, every flag set and earlier state",
    async (recommendation) => {
      const analyst = await makeStaff(handle.db, "analyst");
      const combinations = FLAG_SETS.flatMap((flags) =>
        PRIOR_STATES.map((prior) => ({ recommendation, flags, prior, publicId: publicIdOf("outcome") })),
      );
      await handle.db.insert(cases).values(
        combinations.map(({ flags, prior, publicId }) => ({
          publicId,
          upstreamStatus: "review",
          flags,
          dueAt: due,
          assigneeId: analyst.actor.id,
          ...(prior ? { recommendation: "approve" as const, outcomeState: prior, outcomeBy: analyst.actor.id, outcomeAt: now } : {}),
        })),
      );
      for (const { recommendation, flags, prior, publicId } of combinations) {
        const recording = recordOutcome(handle.db, analyst, publicId, {
          recommendation,
          reasons: [REASONS_BY_RECOMMENDATION[recommendation][0]!],
          comment: "Checked.",
        });
        const label = `${recommendation} on [${flags.join(",")}] after ${prior}`;
        if (prior === "confirmed") {
          // A confirmed outcome is settled: nothing is recorded over it.
          await expect(recording, label).rejects.toMatchObject({ code: "conflict" });
          continue;
        }
        const expected = needsConfirmation(recommendation, flags) ? "pending_confirmation" : "recorded";
        expect(await recording, label).toEqual({ outcomeState: expected });
      }
    },
  );

  it("the queues list each case where its stage says, and a final status disagrees where disagrees says", async () => {
    const me = await makeStaff(handle.db, "analyst");
    const other = await makeStaff(handle.db, "analyst");
    const rows = (["open", "closed"] as const).flatMap((status) =>
      [null, ...RECOMMENDATIONS].flatMap((recommendation) =>
        // A recommendation and its state are written together: both or neither.
        PRIOR_STATES.filter((outcomeState) => (outcomeState === null) === (recommendation === null)).flatMap((outcomeState) =>
          (["me", "other", null] as const).map((assignee) => ({
            status,
            recommendation,
            outcomeState,
            assignee,
            publicId: publicIdOf("stage"),
          })),
        ),
      ),
    );
    await handle.db.insert(cases).values(
      rows.map(({ status, recommendation, outcomeState, assignee, publicId }) => ({
        publicId,
        status,
        upstreamStatus: "review",
        dueAt: due,
        recommendation,
        outcomeState,
        assigneeId: assignee === "me" ? me.actor.id : assignee === "other" ? other.actor.id : null,
      })),
    );
    const found = await handle.db
      .select({
        publicId: cases.publicId,
        ...Object.fromEntries(QUEUES.map((queue) => [queue, sql<boolean>`(${queueCondition(queue, me.actor.id)})`.mapWith(Boolean)])),
        ...Object.fromEntries(DECIDED_STATUSES.map((final) => [final, sql<boolean>`(${disagreesSql(final)})`.mapWith(Boolean)])),
      })
      .from(cases)
      .where(
        inArray(
          cases.publicId,
          rows.map((row) => row.publicId),
        ),
      );
    const byId = new Map(found.map((row) => [row.publicId, row as Record<string, unknown>]));
    expect(byId.size).toBe(rows.length);
    for (const row of rows) {
      const got = byId.get(row.publicId)!;
      const label = `${row.status} ${row.recommendation} ${row.outcomeState} assigned to ${row.assignee}`;
      expect(
        QUEUES.filter((queue) => got[queue] === true),
        label,
      ).toEqual(listedIn(stageOf(row), row.assignee));
      const effective = (EFFECTIVE_STATES as readonly (string | null)[]).includes(row.outcomeState);
      for (const final of DECIDED_STATUSES) {
        expect(got[final], `${label}, final ${final}`).toBe(disagrees(row.recommendation, effective, final));
      }
    }
  });
});
