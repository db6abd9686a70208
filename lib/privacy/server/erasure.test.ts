import { randomUUID } from "node:crypto";

import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";

import { recordEvent } from "@/lib/audit-trail/server";
import { cpfHash } from "@/lib/audit-trail/server/record";
import { auditEvents } from "@/lib/audit-trail/server/tables";
import { verifyAuditChain } from "@/lib/audit-trail/server/verify";
import { openCaseText, PERSON_NAME_LEGACY, sealCaseText } from "@/lib/cases/server/sealed-text";
import { applyObservations, observe } from "@/lib/cases/server/store";
import { caseEntries, cases, verificationIndex } from "@/lib/cases/server/tables";
import { createDatabase, type Database } from "@/lib/db/client";
import { monitoringAlerts, monitoringScreenings } from "@/lib/monitoring/server/tables";
import { AppError } from "@/lib/shared/errors";
import { documentCrops } from "@/lib/verifications/server/tables";
import { webhookDeliveries } from "@/lib/webhooks/server/tables";
import { makeStaff, makeVerification, TEST_SETTINGS } from "@/test/cases";
import { describeEachDatabase, stubTestEnvironment, withDatabase } from "@/test/db";

import { cancelErasure, confirmErasure, listErasures, requestErasure, type ErasureContext } from "./erasure";
import { privacyErasures } from "./tables";

beforeAll(() => stubTestEnvironment());
afterAll(() => vi.unstubAllEnvs());

// Two people: the one who asks for erasure, and another whose data must stay exactly as it was.
const SUBJECT = "52998224725";
const OTHER = "11144477735";

const body = (publicId: string) =>
  JSON.stringify({
    event: "verification.approved",
    verification_id: publicId,
    status: "approved",
    ref_id: "client-1",
    occurred_at: "2026-01-10T10:00:00Z",
    extra: { name: "Maria da Silva", score: 97 },
  });

async function member(db: Database): Promise<ErasureContext> {
  const staff = await makeStaff(db, "admin");
  return { actor: { id: staff.actor.id, email: staff.actor.email }, ip: "203.0.113.7" };
}

/** The name each seeded case holds (sealed), as the verification gave it. */
const nameOf = (cpf: string) => `Maria Aparecida ${cpf === SUBJECT ? "da Silva" : "Souza"}`;

/** A verification of `cpf` as the dashboard holds it: index entry, case with notes, comment and name, crop, webhook body, audit events. */
async function seedPerson(db: Database, cpf: string, author: string) {
  const publicId = randomUUID();
  await db
    .insert(verificationIndex)
    .values({ publicId, refId: `ref-${publicId}`, cpfHash: cpfHash(cpf), documentMasked: "***.982.247-**" });
  const [row] = await db
    .insert(cases)
    .values({
      publicId,
      upstreamStatus: "review",
      dueAt: new Date(Date.now() + 86_400_000),
      outcomeComment: `comment about ${cpf}`,
      personName: sealCaseText("personName", nameOf(cpf)),
    })
    .returning({ id: cases.id });
  await db.insert(caseEntries).values([
    { caseId: row!.id, kind: "opened", details: { status: "review" } },
    { caseId: row!.id, kind: "note", actorId: author, text: "She said her name is Maria" },
    { caseId: row!.id, kind: "outcome", actorId: author, text: "Document photo blurred", details: { recommendation: "reprove" } },
  ]);
  await db.insert(documentCrops).values({ publicId, x: 0.1, y: 0.1, w: 0.3, h: 0.3 });
  await db
    .insert(webhookDeliveries)
    .values({ deliveryId: randomUUID(), event: "verification.approved", publicId, body: body(publicId), state: "processed" });
  // The ongoing screening's facts and an alert it opened (lib/monitoring/server/screening.ts).
  await db.insert(monitoringScreenings).values({
    publicId,
    connectionId: "default",
    cpfHash: cpfHash(cpf),
    documentMasked: "***.982.247-**",
    lastScreenedAt: new Date(),
    pep: true,
    deceased: false,
  });
  await db.insert(monitoringAlerts).values({ publicId, connectionId: "default", documentMasked: "***.982.247-**", change: "pep" });
  await recordEvent({ actor: null, action: "verification.view", target: { type: "cpf", cpf }, outcome: "success" }, db);
  return { publicId, caseId: row!.id };
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describeEachDatabase("erasure on request on $name", ({ name, open }) => {
  const handle = withDatabase(open);
  let db: Database;
  beforeAll(() => {
    db = handle.db;
  });

  it("stores a request by the CPF's hashes and masked form, never the CPF, and erases nothing yet", async () => {
    const asker = await member(db);
    const subject = await seedPerson(db, SUBJECT, asker.actor.id);
    const erasure = await requestErasure(db, asker, { cpf: SUBJECT, reason: "Titular asked by email on 2026-03-01" });
    expect(erasure).toMatchObject({
      state: "pending",
      documentMasked: "***.982.247-**",
      requestedBy: { id: asker.actor.id },
      result: null,
    });
    const [row] = await db.select().from(privacyErasures).where(eq(privacyErasures.id, erasure.id));
    expect(row!.cpfHashes).toEqual([cpfHash(SUBJECT)]);
    expect(JSON.stringify(row)).not.toContain(SUBJECT);
    // The reason may name the person: sealed at rest, read back as typed.
    expect(JSON.stringify(row)).not.toContain("asked by email");
    expect(erasure.reason).toBe("Titular asked by email on 2026-03-01");
    const [event] = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "privacy.erasure.request"), eq(auditEvents.target, erasure.id)));
    expect(event).toMatchObject({ targetHash: cpfHash(SUBJECT), actorId: asker.actor.id, purpose: null });
    expect(JSON.stringify(event)).not.toMatch(/52998224725|email on/);
    const [note] = await db
      .select()
      .from(caseEntries)
      .where(and(eq(caseEntries.caseId, subject.caseId), eq(caseEntries.kind, "note")));
    expect(note!.text).toBe("She said her name is Maria");
    // A second request for the same person while one waits: refused.
    expect((await failure(requestErasure(db, asker, { cpf: SUBJECT, reason: "again" }))).code).toBe("conflict");
    await cancelErasure(db, asker, erasure.id);
  });

  it("lets another member confirm, erasing only that person's free text, crops, index entries and bodies", async () => {
    const asker = await member(db);
    const confirmer = await member(db);
    const subject = await seedPerson(db, SUBJECT, asker.actor.id);
    const other = await seedPerson(db, OTHER, asker.actor.id);
    const subjectEvents = await db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.targetHash, cpfHash(SUBJECT)));
    const totalEvents = (await db.select({ count: sql<number>`count(*)::int` }).from(auditEvents))[0]!.count;

    const { id } = await requestErasure(db, asker, { cpf: "529.982.247-25", reason: "LGPD art. 18 request" });
    // Four eyes: the requester cannot confirm, and the database refuses it too.
    const own = await failure(confirmErasure(db, asker, id));
    expect(own.code).toBe("conflict");
    expect(own.message).toMatch(/another member/);
    await expect(db.update(privacyErasures).set({ decidedBy: asker.actor.id }).where(eq(privacyErasures.id, id))).rejects.toThrow();

    const done = await confirmErasure(db, confirmer, id);
    expect(done).toMatchObject({ state: "confirmed", decidedBy: { id: confirmer.actor.id } });
    const result = done.result!;
    expect(result.verifications).toBeGreaterThanOrEqual(2); // this test's and the first test's verification
    expect(result.erased.case_texts).toBe(result.cases * 2);
    expect(result.erased.outcome_comments).toBe(result.cases);
    expect(result.erased.person_names).toBe(result.cases);
    expect(result.erased.document_crops).toBe(result.verifications);
    expect(result.erased.index_entries).toBe(result.verifications);
    expect(result.erased.webhook_bodies).toBe(result.verifications);
    expect(result.erased.screenings).toBe(result.verifications);
    expect(result.kept.map((entry) => entry.kind)).toEqual([
      "audit_trail",
      "case_decisions",
      "monitoring_alerts",
      "verification_events",
      "provider_data",
    ]);
    expect(result.kept[2]).toMatchObject({ count: result.cases, reason: expect.stringMatching(/no longer screened/) });
    expect(result.kept[0]!.count).toBeGreaterThanOrEqual(subjectEvents.length);
    expect(result.kept[0]!.reason).toMatch(/Marco Civil/);
    expect(result.kept[1]!.reason).toMatch(/9\.613/);

    // The person's entries keep their row and kind; their text is a tombstone naming the confirmer.
    const entries = await db.select().from(caseEntries).where(eq(caseEntries.caseId, subject.caseId));
    expect(entries.map((entry) => entry.kind)).toEqual(["opened", "note", "outcome"]);
    for (const entry of entries.filter((item) => item.kind !== "opened")) {
      expect(entry).toMatchObject({ text: null, redactedBy: confirmer.actor.id });
      expect(entry.redactedAt).toBeInstanceOf(Date);
    }
    expect(entries.find((entry) => entry.kind === "opened")!.redactedAt).toBeNull();
    const [erasedCase] = await db.select().from(cases).where(eq(cases.id, subject.caseId));
    expect(erasedCase).toMatchObject({ outcomeComment: null, personName: null, status: "open", upstreamStatus: "review" });
    expect(erasedCase!.erasedAt).toBeInstanceOf(Date);
    // The sync reading the verification again (its name included) does not write the name back; the other's follows it.
    const reread = (publicId: string, name: string) => observe(makeVerification({ publicId, person: { name } }), TEST_SETTINGS);
    await applyObservations(
      db,
      [reread(subject.publicId, nameOf(SUBJECT)), reread(other.publicId, "Maria Aparecida Souza Lima")],
      TEST_SETTINGS,
    );
    const names = async (caseId: string) =>
      openCaseText(
        "personName",
        (await db.select({ name: cases.personName }).from(cases).where(eq(cases.id, caseId)))[0]!.name,
        PERSON_NAME_LEGACY,
      ).text;
    expect(await names(subject.caseId)).toBeNull();
    expect(await names(other.caseId)).toBe("Maria Aparecida Souza Lima");
    expect(await db.select().from(documentCrops).where(eq(documentCrops.publicId, subject.publicId))).toEqual([]);
    expect(
      await db
        .select()
        .from(verificationIndex)
        .where(eq(verificationIndex.cpfHash, cpfHash(SUBJECT))),
    ).toEqual([]);
    // The screening's facts are gone (the person is no longer screened); its alert is kept with the decisions.
    expect(await db.select().from(monitoringScreenings).where(eq(monitoringScreenings.publicId, subject.publicId))).toEqual([]);
    expect(await db.select().from(monitoringAlerts).where(eq(monitoringAlerts.publicId, subject.publicId))).toHaveLength(1);
    const [delivery] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.publicId, subject.publicId));
    expect(delivery!.body).not.toMatch(/Maria|score/);
    expect(JSON.parse(delivery!.body)).toMatchObject({ verification_id: subject.publicId, status: "approved" });

    // The other person's data is untouched.
    const otherEntries = await db.select().from(caseEntries).where(eq(caseEntries.caseId, other.caseId));
    expect(otherEntries.filter((entry) => entry.text !== null)).toHaveLength(2);
    expect(otherEntries.every((entry) => entry.redactedAt === null)).toBe(true);
    const [otherCase] = await db.select().from(cases).where(eq(cases.id, other.caseId));
    expect(otherCase).toMatchObject({ outcomeComment: `comment about ${OTHER}`, erasedAt: null });
    expect(otherCase!.personName).not.toBeNull();
    expect(await db.select().from(documentCrops).where(eq(documentCrops.publicId, other.publicId))).toHaveLength(1);
    expect(
      await db
        .select()
        .from(verificationIndex)
        .where(eq(verificationIndex.cpfHash, cpfHash(OTHER))),
    ).toHaveLength(1);
    expect(await db.select().from(monitoringScreenings).where(eq(monitoringScreenings.publicId, other.publicId))).toHaveLength(1);
    const [otherDelivery] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.publicId, other.publicId));
    expect(otherDelivery!.body).toBe(body(other.publicId));

    // The trail keeps every event (plus the request, the refused confirmation and the confirmation) and verifies.
    const after = await db
      .select()
      .from(auditEvents)
      .where(
        inArray(
          auditEvents.id,
          subjectEvents.map((event) => event.id),
        ),
      );
    expect(after).toEqual(subjectEvents);
    const totalAfter = (await db.select({ count: sql<number>`count(*)::int` }).from(auditEvents))[0]!.count;
    expect(totalAfter).toBe(totalEvents + 3);
    const [confirmed] = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "privacy.erasure.confirm"), eq(auditEvents.target, id), eq(auditEvents.outcome, "success")));
    expect(confirmed).toMatchObject({ actorId: confirmer.actor.id, targetHash: cpfHash(SUBJECT) });
    expect(confirmed!.details).toMatchObject({
      verifications: result.verifications,
      case_texts: result.erased.case_texts,
      person_names: result.erased.person_names,
    });
    // Counts only: the name never reaches the trail.
    expect(JSON.stringify(confirmed)).not.toMatch(/Aparecida/);
    expect((await verifyAuditChain(db)).ok).toBe(true);

    // Confirming or cancelling again: 409; an unknown id: 404.
    expect((await failure(confirmErasure(db, confirmer, id))).code).toBe("conflict");
    expect((await failure(cancelErasure(db, asker, id))).code).toBe("conflict");
    expect((await failure(confirmErasure(db, confirmer, randomUUID()))).code).toBe("not_found");
    expect((await failure(confirmErasure(db, confirmer, "not-a-uuid"))).code).toBe("not_found");
  });

  it("lets the requester or another member cancel a pending request, erasing nothing", async () => {
    const asker = await member(db);
    const other = await member(db);
    const person = await seedPerson(db, OTHER, asker.actor.id);
    const first = await requestErasure(db, asker, { cpf: OTHER, reason: "Asked by phone" });
    const withdrawn = await cancelErasure(db, asker, first.id);
    expect(withdrawn).toMatchObject({ state: "cancelled", decidedBy: { id: asker.actor.id }, result: null });
    const [row] = await db.select().from(privacyErasures).where(eq(privacyErasures.id, first.id));
    expect(row!.decidedBy).toBeNull();
    const second = await requestErasure(db, asker, { cpf: OTHER, reason: "Asked by phone, again" });
    expect(await cancelErasure(db, other, second.id)).toMatchObject({ state: "cancelled", decidedBy: { id: other.actor.id } });
    expect((await failure(confirmErasure(db, other, second.id))).code).toBe("conflict");
    const [note] = await db
      .select()
      .from(caseEntries)
      .where(and(eq(caseEntries.caseId, person.caseId), eq(caseEntries.kind, "note")));
    expect(note!.text).not.toBeNull();
    const list = await listErasures(db, asker.actor.id);
    expect(list.pending.some((item) => item.id === second.id)).toBe(false);
    expect(list.recent.map((item) => item.id)).toEqual(expect.arrayContaining([first.id, second.id]));
    expect(JSON.stringify(list)).not.toContain(OTHER);
  });

  it(`lets one of two members confirming at once win, the other getting 409 (${name})`, async () => {
    const asker = await member(db);
    const [one, two] = [await member(db), await member(db)];
    await seedPerson(db, "39053344705", asker.actor.id);
    const { id } = await requestErasure(db, asker, { cpf: "39053344705", reason: "Race" });
    // On PostgreSQL a second handle, so the two transactions really overlap; PGlite has one connection.
    const second = handle.url ? await createDatabase({ url: handle.url }) : null;
    try {
      const outcomes = await Promise.allSettled([confirmErasure(db, one, id), confirmErasure(second?.db ?? db, two, id)]);
      expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
      const lost = outcomes.find((outcome) => outcome.status === "rejected") as PromiseRejectedResult;
      expect((lost.reason as AppError).code).toBe("conflict");
    } finally {
      await second?.close();
    }
    const confirmations = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "privacy.erasure.confirm"), eq(auditEvents.target, id), eq(auditEvents.outcome, "success")));
    expect(confirmations).toHaveLength(1);
    expect((await verifyAuditChain(db)).ok).toBe(true);
  });
});
