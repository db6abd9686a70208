import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { cpfHash } from "@/lib/audit-trail/server/record";
import { auditEvents } from "@/lib/audit-trail/server/tables";
import { caseEntries, cases, verificationIndex } from "@/lib/cases/server/tables";
import { createDatabase, type Database } from "@/lib/db/client";
import { isSealedText, parseKeyRing, sealedTextKeyId, singleKeyRing } from "@/lib/keys/ring";
import { confirmErasure, requestErasure } from "@/lib/privacy/server/erasure";
import { makeStaff, makeVerification, TEST_SETTINGS } from "@/test/cases";
import { stubConfigEnv } from "@/test/config";
import { describeEachDatabase, stubTestEnvironment, TEST_SECRETS, type TestDatabase } from "@/test/db";

import { assignCase } from "./assignment";
import { getCase } from "./detail";
import { addNote } from "./notes";
import { confirmOutcome, recordOutcome } from "./outcome";
import { personNameFor } from "./queue";
import { caseTextOrPlaceholder, openCaseText, resealStep, sealCaseText } from "./sealed-text";
import { applyObservations, observe } from "./store";
import { legacyClearText, resealCaseTexts } from "./text-reseal";

/*
 * Case notes and comments at rest, and the person's name: sealed under the data key ring, read back unchanged, legacy
 * clear rows and rows under older keys brought under the current key by the re-seal job, a key gone from the ring
 * shown as a placeholder, an erased text shown as a tombstone.
 */

const OLD_SECRET = TEST_SECRETS.DATA_ENCRYPTION_SECRET;
const NEW_SECRET = "rotated-data-encryption-secret-0123456789abcdef";
const NEW_ID = "2026-12";
const SUBJECT_CPF = "52998224725";

beforeAll(() => stubTestEnvironment());
afterAll(() => vi.unstubAllEnvs());
// Each test that rotates puts the configured ring back (the plain secret: one key with the id "1").
afterEach(() => stubConfigEnv({ DATA_ENCRYPTION_SECRET: OLD_SECRET }));

describe("sealed case text", () => {
  const ring = singleKeyRing(OLD_SECRET);

  it("opens what it sealed, per column: a text sealed for one column does not open as the other", () => {
    const sealed = sealCaseText("entry", "Falou com a mãe, Ana", ring)!;
    expect(isSealedText(sealed)).toBe(true);
    expect(sealed).not.toContain("Ana");
    expect(openCaseText("entry", sealed, "accepted", ring)).toEqual({ text: "Falou com a mãe, Ana", unreadable: null });
    expect(openCaseText("outcomeComment", sealed, "accepted", ring)).toEqual({ text: null, unreadable: { keyId: "1", retired: false } });
    expect(sealCaseText("entry", null, ring)).toBeNull();
    expect(openCaseText("entry", null, "accepted", ring)).toEqual({ text: null, unreadable: null });
  });

  it("reads a clear value from before sealing as itself, and names a retired key instead of guessing", () => {
    expect(openCaseText("entry", "written before sealing", "accepted", ring)).toEqual({ text: "written before sealing", unreadable: null });
    const underOld = sealCaseText("entry", "old words", parseKeyRing(`gone:${NEW_SECRET}`))!;
    expect(openCaseText("entry", underOld, "accepted", ring)).toEqual({ text: null, unreadable: { keyId: "gone", retired: true } });
    expect(caseTextOrPlaceholder("entry", underOld, "accepted", ring)).toBe("[sealed under retired key gone]");
    expect(caseTextOrPlaceholder("entry", "clear", "accepted", ring)).toBe("clear");
  });

  it("once clear text is retired, a value without an envelope is refused as unsealed, and the job leaves it", () => {
    expect(openCaseText("entry", "planted words", "retired", ring)).toEqual({
      text: null,
      unreadable: { keyId: "", retired: false, unsealed: true },
    });
    expect(caseTextOrPlaceholder("entry", "planted words", "retired", ring)).toBe("[stored without encryption: not shown]");
    expect(resealStep("entry", "planted words", "retired", parseKeyRing(`${NEW_ID}:${NEW_SECRET},1:${OLD_SECRET}`))).toEqual({
      kind: "unreadable",
      keyId: "",
    });
    // Envelopes read as before.
    expect(openCaseText("entry", sealCaseText("entry", "words", ring), "retired", ring).text).toBe("words");
  });

  it("tells the job what to do with each stored value", () => {
    const rotated = parseKeyRing(`${NEW_ID}:${NEW_SECRET},1:${OLD_SECRET}`);
    const underOld = sealCaseText("entry", "words", ring)!;
    expect(resealStep("entry", null, "accepted", rotated)).toEqual({ kind: "none" });
    expect(resealStep("entry", sealCaseText("entry", "words", rotated), "accepted", rotated)).toEqual({ kind: "none" });
    const resealed = resealStep("entry", underOld, "accepted", rotated);
    expect(resealed.kind).toBe("reseal");
    const value = (resealed as { value: string }).value;
    expect(sealedTextKeyId(value)).toBe(NEW_ID);
    expect(openCaseText("entry", value, "accepted", rotated).text).toBe("words");
    const sealed = resealStep("entry", "clear words", "accepted", rotated);
    expect(sealed.kind).toBe("seal");
    expect(openCaseText("entry", (sealed as { value: string }).value, "accepted", rotated).text).toBe("clear words");
    expect(resealStep("entry", underOld, "accepted", singleKeyRing(NEW_SECRET, NEW_ID))).toEqual({ kind: "unreadable", keyId: "1" });
  });
});

describeEachDatabase("sealed case text on $name", ({ open }) => {
  let handle: TestDatabase;
  beforeEach(async () => {
    handle = await open();
  });
  afterEach(async () => {
    await handle?.dispose();
  });

  async function openCase(overrides: Parameters<typeof makeVerification>[0] = {}) {
    const verification = makeVerification(overrides);
    await applyObservations(handle.db, [observe(verification, TEST_SETTINGS)], TEST_SETTINGS);
    const [row] = await handle.db.select().from(cases).where(eq(cases.publicId, verification.publicId));
    return { publicId: verification.publicId, id: row!.id };
  }

  /** Every column of the case's rows as text, as a database dump would show them. */
  async function rawRows(db: Database, caseId: string): Promise<string> {
    const rows = await db.execute<{ line: string }>(sql`
      select c::text as line from cases c where c.id = ${caseId}
      union all select e::text from case_entries e where e.case_id = ${caseId}`);
    return (rows as unknown as { rows: Array<{ line: string }> }).rows.map((row) => row.line).join("\n");
  }

  async function storedTexts(caseId: string) {
    const entries = await handle.db
      .select({ kind: caseEntries.kind, text: caseEntries.text })
      .from(caseEntries)
      .where(eq(caseEntries.caseId, caseId))
      .orderBy(caseEntries.id);
    const [row] = await handle.db.select({ comment: cases.outcomeComment }).from(cases).where(eq(cases.id, caseId));
    return { entries: entries.filter((entry) => entry.text !== null), comment: row?.comment ?? null };
  }

  async function resealEvents() {
    return handle.db.select().from(auditEvents).where(eq(auditEvents.action, "case.text_reseal")).orderBy(auditEvents.id);
  }

  /** A case with a note, an outcome with its comment and a confirmation with its reason. */
  async function workedCase(words: { note: string; comment: string; confirmation: string }) {
    const analyst = await makeStaff(handle.db, "analyst");
    const admin = await makeStaff(handle.db, "admin");
    const opened = await openCase({ pepOrigin: "Prefeito", person: { name: PERSON } });
    await assignCase(handle.db, analyst, opened.publicId, "me");
    await addNote(handle.db, analyst, opened.publicId, words.note);
    await recordOutcome(handle.db, analyst, opened.publicId, {
      recommendation: "approve",
      reasons: ["identity_confirmed"],
      comment: words.comment,
    });
    await confirmOutcome(handle.db, admin, opened.publicId, { agree: true, comment: words.confirmation });
    return { ...opened, analyst, admin };
  }

  const PERSON = "Joana Bezerra Cavalcanti";
  const storedName = async (caseId: string) =>
    (await handle.db.select({ name: cases.personName }).from(cases).where(eq(cases.id, caseId)))[0]!.name;

  const WORDS = {
    note: "Maria Aparecida ligou: o RG foi furtado em 2019",
    comment: "Endereço confere com a conta de luz da Rua das Flores",
    confirmation: "Conferi a selfie com o documento, mesma pessoa",
  };

  it("notes, outcome and confirmation texts and the outcome comment are not in any column of the raw rows; the case reads them unchanged", async () => {
    const worked = await workedCase(WORDS);
    const dump = await rawRows(handle.db, worked.id);
    for (const words of [...Object.values(WORDS), PERSON]) {
      for (const fragment of words.split(/[ ,:]+/).filter((word) => word.length > 4)) expect(dump).not.toContain(fragment);
    }
    const stored = await storedTexts(worked.id);
    expect(stored.entries.map((entry) => entry.kind)).toEqual(["note", "outcome", "confirmation"]);
    for (const value of [...stored.entries.map((entry) => entry.text!), stored.comment!]) expect(sealedTextKeyId(value)).toBe("1");

    const detail = (await getCase(handle.db, "primary", worked.publicId))!;
    const texts = Object.fromEntries(detail.entries.filter((entry) => entry.text).map((entry) => [entry.kind, entry.text]));
    expect(texts).toEqual({ note: WORDS.note, outcome: WORDS.comment, confirmation: WORDS.confirmation });
    expect(detail.outcomeComment).toBe(WORDS.comment);
    expect(detail.outcomeCommentUnreadable).toBeNull();
    expect(detail.erasedAt).toBeNull();
    expect(detail.entries.every((entry) => entry.unreadable === null && entry.redacted === null)).toBe(true);
  });

  it("the person's name is sealed at ingest, for its own column only, and a name without an envelope is never read", async () => {
    const opened = await openCase({ person: { name: `  ${PERSON.replaceAll(" ", "   ")} ` } });
    const stored = (await storedName(opened.id))!;
    expect(sealedTextKeyId(stored)).toBe("1");
    expect(await rawRows(handle.db, opened.id)).not.toMatch(/Joana|Bezerra|Cavalcanti/);
    // Read back with its spaces collapsed; sealed for the name's column, it does not open as a note.
    expect(openCaseText("personName", stored, "retired").text).toBe(PERSON);
    expect(openCaseText("entry", stored, "accepted").text).toBeNull();
    expect(personNameFor({ permissions: ["personal_data.unmasked"] }, stored)).toBe(PERSON);
    expect(personNameFor({ permissions: [] }, stored)).toBe("J*** B*** C***");
    // Seen again (the sync, an event), it is sealed afresh; read without a name, the case keeps the one it knows.
    await applyObservations(
      handle.db,
      [observe(makeVerification({ publicId: opened.publicId, person: {} }), TEST_SETTINGS)],
      TEST_SETTINGS,
    );
    expect(await storedName(opened.id)).toBe(stored);
    await applyObservations(
      handle.db,
      [observe(makeVerification({ publicId: opened.publicId, person: { name: "Joana B. Cavalcanti" } }), TEST_SETTINGS)],
      TEST_SETTINGS,
    );
    expect(openCaseText("personName", await storedName(opened.id), "retired").text).toBe("Joana B. Cavalcanti");
    // Written around the dashboard in clear: never shown, whoever reads.
    await handle.db.update(cases).set({ personName: PERSON }).where(eq(cases.id, opened.id));
    expect(personNameFor({ permissions: ["personal_data.unmasked"] }, await storedName(opened.id))).toBeNull();
  });

  it("after a rotation old texts read, the job moves them to the new key, and a ring without the old key still reads them", async () => {
    const worked = await workedCase(WORDS);
    // The new key first, the old one still in the ring (rotation, first step).
    stubConfigEnv({ DATA_ENCRYPTION_SECRET: `${NEW_ID}:${NEW_SECRET},1:${OLD_SECRET}` });
    expect((await getCase(handle.db, "primary", worked.publicId))!.outcomeComment).toBe(WORDS.comment);
    await addNote(handle.db, worked.analyst, worked.publicId, "written under the new key");
    const before = await storedTexts(worked.id);
    expect(before.entries.map((entry) => sealedTextKeyId(entry.text!))).toEqual(["1", "1", "1", NEW_ID]);

    const report = await resealCaseTexts(handle.db, { holder: "instance-a" });
    expect(report).toEqual({
      ran: true,
      keyId: NEW_ID,
      counts: {
        entriesSealed: 0,
        entriesResealed: 3,
        commentsSealed: 0,
        commentsResealed: 1,
        namesResealed: 1,
        recordsResealed: 0,
        unreadable: 0,
        remaining: 0,
      },
    });
    const after = await storedTexts(worked.id);
    expect([...after.entries.map((entry) => entry.text!), after.comment!, (await storedName(worked.id))!].map(sealedTextKeyId)).toEqual([
      NEW_ID,
      NEW_ID,
      NEW_ID,
      NEW_ID,
      NEW_ID,
      NEW_ID,
    ]);
    // The words did not change, only their envelope; the note written under the new key was not touched.
    expect(after.entries[3]!.text).toBe(before.entries[3]!.text);
    const events = await resealEvents();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorId: null, outcome: "success" });
    expect(events[0]!.details).toMatchObject({ keyId: NEW_ID, entriesResealed: 3, commentsResealed: 1, namesResealed: 1, remaining: 0 });
    expect(JSON.stringify(events[0])).not.toMatch(/Maria|Flores|selfie|Joana/);

    // The old key leaves the ring: everything still reads.
    stubConfigEnv({ DATA_ENCRYPTION_SECRET: `${NEW_ID}:${NEW_SECRET}` });
    const detail = (await getCase(handle.db, "primary", worked.publicId))!;
    expect(detail.outcomeComment).toBe(WORDS.comment);
    expect(personNameFor({ permissions: ["personal_data.unmasked"] }, await storedName(worked.id))).toBe(PERSON);
    expect(detail.entries.filter((entry) => entry.text).map((entry) => entry.text)).toEqual([
      WORDS.note,
      WORDS.comment,
      WORDS.confirmation,
      "written under the new key",
    ]);
    // Nothing left to move: a run changes nothing, says so, and leaves no event on the trail.
    expect(await resealCaseTexts(handle.db, { holder: "instance-a" })).toMatchObject({
      ran: true,
      counts: { entriesResealed: 0, commentsResealed: 0, remaining: 0 },
    });
    expect(await resealEvents()).toHaveLength(1);
  });

  it("clear rows written before sealing read as themselves, and the job seals them", async () => {
    const author = await makeStaff(handle.db, "analyst");
    const opened = await openCase();
    await handle.db
      .insert(caseEntries)
      .values({ caseId: opened.id, actorId: author.actor.id, kind: "note", text: "Nota antiga de João Pedro" });
    await handle.db.update(cases).set({ outcomeComment: "Comentário antigo de João Pedro" }).where(eq(cases.id, opened.id));
    const legacy = (await getCase(handle.db, "primary", opened.publicId))!;
    expect(legacy.entries.find((entry) => entry.kind === "note")?.text).toBe("Nota antiga de João Pedro");
    expect(legacy.outcomeComment).toBe("Comentário antigo de João Pedro");

    const report = await resealCaseTexts(handle.db, { holder: "instance-a", batchSize: 1 });
    expect(report).toMatchObject({ ran: true, counts: { entriesSealed: 1, commentsSealed: 1, entriesResealed: 0, remaining: 0 } });
    expect(await rawRows(handle.db, opened.id)).not.toContain("João");
    const sealed = (await getCase(handle.db, "primary", opened.publicId))!;
    expect(sealed.entries.find((entry) => entry.kind === "note")?.text).toBe("Nota antiga de João Pedro");
    expect(sealed.outcomeComment).toBe("Comentário antigo de João Pedro");
  });

  it("after a run leaves no clear text, clear text is retired: a value written without an envelope is shown as unsealed and never sealed", async () => {
    const author = await makeStaff(handle.db, "analyst");
    const opened = await openCase();
    await handle.db.insert(caseEntries).values({ caseId: opened.id, actorId: author.actor.id, kind: "note", text: "Nota antiga" });
    expect(await legacyClearText(handle.db)).toBe("accepted");
    await resealCaseTexts(handle.db, { holder: "instance-a" });
    expect(await legacyClearText(handle.db)).toBe("retired");
    expect((await getCase(handle.db, "primary", opened.publicId))!.entries.find((entry) => entry.kind === "note")?.text).toBe(
      "Nota antiga",
    );

    // Written around the dashboard, as clear text: not shown as the words, and the job does not launder it.
    await handle.db.insert(caseEntries).values({ caseId: opened.id, actorId: author.actor.id, kind: "note", text: "Aprovar já" });
    await handle.db.update(cases).set({ outcomeComment: "Tudo certo" }).where(eq(cases.id, opened.id));
    const detail = (await getCase(handle.db, "primary", opened.publicId))!;
    const planted = detail.entries.filter((entry) => entry.kind === "note").at(-1)!;
    expect(planted).toMatchObject({ text: null, unreadable: { unsealed: true } });
    expect(detail.outcomeComment).toBeNull();
    expect(detail.outcomeCommentUnreadable).toMatchObject({ unsealed: true });
    expect(JSON.stringify(detail)).not.toMatch(/Aprovar já|Tudo certo/);
    const report = await resealCaseTexts(handle.db, { holder: "instance-a" });
    expect(report).toMatchObject({ ran: true, counts: { entriesSealed: 0, commentsSealed: 0, unreadable: 2 } });
    expect((await storedTexts(opened.id)).comment).toBe("Tudo certo");
  });

  it("a text under a key no longer in the ring (or altered) shows as a placeholder naming the key, and the job leaves it", async () => {
    const author = await makeStaff(handle.db, "analyst");
    const opened = await openCase();
    const retired = singleKeyRing(NEW_SECRET, "retired-1");
    // Under the current key, one character of its ciphertext changed: the tag no longer matches.
    const parts = sealCaseText("entry", "altered words")!.split(".");
    parts[3] = `${parts[3]!.startsWith("A") ? "B" : "A"}${parts[3]!.slice(1)}`;
    const altered = parts.join(".");
    await handle.db.insert(caseEntries).values([
      { caseId: opened.id, actorId: author.actor.id, kind: "note", text: sealCaseText("entry", "under a retired key", retired) },
      { caseId: opened.id, actorId: author.actor.id, kind: "note", text: altered },
    ]);
    const comment = sealCaseText("outcomeComment", "retired comment", retired)!;
    await handle.db.update(cases).set({ outcomeComment: comment }).where(eq(cases.id, opened.id));

    const detail = (await getCase(handle.db, "primary", opened.publicId))!;
    const notes = detail.entries.filter((entry) => entry.kind === "note");
    expect(notes.map((entry) => [entry.text, entry.unreadable])).toEqual([
      [null, { keyId: "retired-1", retired: true }],
      [null, { keyId: "1", retired: false }],
    ]);
    expect(detail.outcomeComment).toBeNull();
    expect(detail.outcomeCommentUnreadable).toEqual({ keyId: "retired-1", retired: true });

    const report = await resealCaseTexts(handle.db, { holder: "instance-a" });
    // The altered one is already under the current key (not the job's business); the two retired ones stay.
    expect(report).toMatchObject({ ran: true, counts: { unreadable: 2, remaining: 2, entriesResealed: 0, commentsResealed: 0 } });
    expect((await storedTexts(opened.id)).comment).toBe(comment);
  });

  it("an entry erased at the titular's request is a tombstone (who, when) in the timeline; an erased case says so", async () => {
    const worked = await workedCase(WORDS);
    // The case's person, as the search index knows them; the erasure finds the case through it.
    await handle.db
      .insert(verificationIndex)
      .values({ publicId: worked.publicId, cpfHash: cpfHash(SUBJECT_CPF), documentMasked: "***.982.247-**" });
    const asker = await makeStaff(handle.db, "admin");
    const confirmer = await makeStaff(handle.db, "admin");
    const { id } = await requestErasure(handle.db, asker, { cpf: SUBJECT_CPF, reason: "LGPD art. 18 request" });
    await confirmErasure(handle.db, confirmer, id);

    const detail = (await getCase(handle.db, "primary", worked.publicId))!;
    const texts = detail.entries.filter((entry) => ["note", "outcome", "confirmation"].includes(entry.kind));
    expect(texts).toHaveLength(3);
    for (const entry of texts) {
      expect(entry).toMatchObject({
        text: null,
        unreadable: null,
        redacted: { by: { id: confirmer.actor.id, email: confirmer.actor.email, name: "admin" } },
      });
      expect(Date.parse(entry.redacted!.at)).not.toBeNaN();
    }
    expect(detail.entries.find((entry) => entry.kind === "opened")?.redacted).toBeNull();
    expect(detail.outcomeComment).toBeNull();
    expect(detail.outcomeCommentUnreadable).toBeNull();
    expect(Date.parse(detail.erasedAt!)).not.toBeNaN();
    expect(await storedName(worked.id)).toBeNull();
  });

  it("two instances racing the job: one runs it", async () => {
    const opened = await openCase();
    await handle.db.update(cases).set({ outcomeComment: "clear comment" }).where(eq(cases.id, opened.id));
    const other = handle.url ? await createDatabase({ url: handle.url }) : null;
    try {
      // As the schedule runs it, with its gap: the one that asks second is refused whether the first still holds the
      // lease or has already finished (on demand, with no gap, a run over before the other asked lets both run).
      const reports = await Promise.all([
        resealCaseTexts(handle.db, { holder: "instance-a", minGapMs: 3_600_000 }),
        resealCaseTexts(other?.db ?? handle.db, { holder: "instance-b", minGapMs: 3_600_000 }),
      ]);
      expect(reports.filter((report) => report.ran)).toHaveLength(1);
      expect(await resealEvents()).toHaveLength(1);
      expect(sealedTextKeyId((await storedTexts(opened.id)).comment!)).toBe("1");
      // Within the schedule's gap, a later look does not run it again.
      expect(await resealCaseTexts(handle.db, { holder: "instance-b", minGapMs: 3_600_000 })).toEqual({ ran: false });
    } finally {
      await other?.close();
    }
  });
});
