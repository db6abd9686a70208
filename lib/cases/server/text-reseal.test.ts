import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";

import { auditEvents } from "@/lib/audit-trail/server/tables";
import { caseEntries, cases } from "@/lib/cases/server/tables";
import { singleKeyRing } from "@/lib/keys/ring";
import { makeStaff, makeVerification, TEST_SETTINGS } from "@/test/cases";
import { stubConfigEnv } from "@/test/config";
import { describeEachDatabase, stubTestEnvironment, TEST_SECRETS, withDatabase } from "@/test/db";

import { sealCaseText } from "./sealed-text";
import { applyObservations, observe } from "./store";
import { legacyClearText, resealCaseTexts } from "./text-reseal";

/*
 * What the re-seal job leaves on the audit trail, as docs/operations.md ("Rotating the data key") says: each run that
 * changed something (a text, or clear text retired), failed, or left texts not under the current key is one
 * `case.text_reseal` event with counts and key ids; a run with nothing to do leaves none. What the job does to the
 * texts themselves is in ./sealed-text.test.ts.
 */

const OLD_SECRET = TEST_SECRETS.DATA_ENCRYPTION_SECRET;
const NEW_SECRET = "rotated-data-encryption-secret-0123456789abcdef";
const NEW_ID = "2026-12";

beforeAll(() => stubTestEnvironment());
afterAll(() => vi.unstubAllEnvs());
afterEach(() => stubConfigEnv({ DATA_ENCRYPTION_SECRET: OLD_SECRET }));

const NOTHING = {
  entriesSealed: 0,
  entriesResealed: 0,
  commentsSealed: 0,
  commentsResealed: 0,
  namesResealed: 0,
  recordsResealed: 0,
  unreadable: 0,
  remaining: 0,
};

describeEachDatabase("the re-seal job's trail on $name", ({ open }) => {
  const handle = withDatabase(open);

  const events = async () =>
    (await handle.db.select().from(auditEvents).where(eq(auditEvents.action, "case.text_reseal")).orderBy(auditEvents.id)).map((event) => [
      event.outcome,
      event.details,
    ]);
  const run = () => resealCaseTexts(handle.db, { holder: "instance-a" });

  it("each run that did something is one event, a run with nothing to do leaves none", async () => {
    // A case as ingest and a note leave it: its person's name and the note sealed under the current key, no clear text.
    const verification = makeVerification({ person: { name: "Joana Bezerra Cavalcanti" } });
    await applyObservations(handle.db, [observe(verification, TEST_SETTINGS)], TEST_SETTINGS);
    const [opened] = await handle.db.select({ id: cases.id }).from(cases).where(eq(cases.publicId, verification.publicId));
    const author = await makeStaff(handle.db, "analyst");
    const note = (text: string, ring = singleKeyRing(OLD_SECRET)) =>
      handle.db
        .insert(caseEntries)
        .values({ caseId: opened!.id, actorId: author.actor.id, kind: "note", text: sealCaseText("entry", text, ring) });
    await note("Maria Aparecida ligou");

    // No text to move, but from this run on a value stored without an envelope is refused rather than read as clear
    // text: that is on the trail.
    expect(await legacyClearText(handle.db)).toBe("accepted");
    await run();
    expect(await legacyClearText(handle.db)).toBe("retired");
    expect(await events()).toEqual([["success", { keyId: "1", ...NOTHING, clearTextRetired: true }]]);

    // Nothing to do: no event (every instance's start-up look would otherwise add one).
    expect(await run()).toMatchObject({ ran: true, counts: NOTHING });
    expect(await events()).toHaveLength(1);

    // A rotation: the run that moves the texts is one event; the next, with nothing left, none.
    stubConfigEnv({ DATA_ENCRYPTION_SECRET: `${NEW_ID}:${NEW_SECRET},1:${OLD_SECRET}` });
    await run();
    await run();
    expect((await events()).slice(1)).toEqual([["success", { keyId: NEW_ID, ...NOTHING, entriesResealed: 1, namesResealed: 1 }]]);

    // A text under a key gone from the ring: every run that leaves it is an event, saying what it could not open.
    await note("under a retired key", singleKeyRing(OLD_SECRET, "retired-1"));
    await run();
    await run();
    expect((await events()).slice(2)).toEqual([
      ["success", { keyId: NEW_ID, ...NOTHING, unreadable: 1, remaining: 1 }],
      ["success", { keyId: NEW_ID, ...NOTHING, unreadable: 1, remaining: 1 }],
    ]);

    // A run that fails (the database refuses a note's rewrite) is an event too, its outcome a failure.
    stubConfigEnv({ DATA_ENCRYPTION_SECRET: `next:${NEW_SECRET}x,${NEW_ID}:${NEW_SECRET}` });
    await handle.db.execute(
      sql.raw(`create function refuse_write() returns trigger language plpgsql as $$
        begin raise exception 'the database refused the write'; end $$`),
    );
    await handle.db.execute(sql`create trigger refuse_rewrite before update on case_entries for each row execute function refuse_write()`);
    await expect(resealCaseTexts(handle.db, { holder: "instance-a" })).rejects.toThrow(/update "case_entries"/);
    await handle.db.execute(sql`drop trigger refuse_rewrite on case_entries`);
    await handle.db.execute(sql`drop function refuse_write()`);
    expect((await events()).slice(4)).toEqual([["failure", expect.objectContaining({ keyId: "next" })]]);
  });
});
