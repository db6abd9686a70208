import { randomUUID } from "node:crypto";

import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";

import { cpfHash, recordEvent } from "@/lib/audit-trail/server/record";
import { auditEvents } from "@/lib/audit-trail/server/tables";
import { createStaff } from "@/lib/auth/server/staff-store";
import { addNote } from "@/lib/cases/server/notes";
import { applyObservations, observe } from "@/lib/cases/server/store";
import { verificationIndex } from "@/lib/cases/server/tables";
import { setLogSink } from "@/lib/log";
import { buildTitularReport } from "@/lib/privacy/server/titular-report";
import type { TitularReport } from "@/lib/privacy/titular";
import { apiRequest, createTestStaff, sessionCookieFor } from "@/test/auth";
import { makeVerification, TEST_SETTINGS } from "@/test/cases";
import { describeEachDatabase, stubTestEnvironment, TEST_SECRETS, withProcessDatabase } from "@/test/db";
import { pdfText } from "@/test/pdf-text";

import { POST } from "./route";

/*
 * POST /api/privacy/reports: one person's processings and what is stored about them, found by the CPF's keyed
 * hash and by the verifications the index maps to it; never another person's. The request is itself on the
 * trail with the hash, never the CPF; CSV and PDF carry the same processings (the PDF's text extracted).
 */

const CPF = "52998224725";
const OTHER_CPF = "11144477735";
const logged: string[] = [];

beforeAll(() => {
  stubTestEnvironment();
  setLogSink((line) => logged.push(JSON.stringify(line)));
});
afterAll(() => {
  setLogSink(undefined);
  vi.unstubAllEnvs();
});

describeEachDatabase("POST /api/privacy/reports on $name", ({ open }) => {
  const handle = withProcessDatabase(open);
  let adminCookie: string;
  let analystCookie: string;
  let analystEmail: string;
  const mine = randomUUID();
  const theirs = randomUUID();

  beforeAll(async () => {
    const db = handle.db;
    const admin = await createTestStaff(db, { role: "admin" });
    const analyst = await createStaff(db, {
      email: `conceicao-${randomUUID().slice(0, 8)}@test.local`,
      name: "Ana Conceição",
      role: "analyst",
      passwordHash: null,
      mustChangePassword: false,
    });
    analystEmail = analyst.email;
    adminCookie = await sessionCookieFor(db, admin);
    analystCookie = await sessionCookieFor(db, analyst);
    await db.insert(verificationIndex).values([
      { publicId: mine, refId: "ref-mine", cpfHash: cpfHash(CPF), documentMasked: "***.982.247-**", createdHere: true },
      { publicId: theirs, refId: "ref-theirs", cpfHash: cpfHash(OTHER_CPF), documentMasked: "***.444.777-**", createdHere: true },
    ]);
    const actor = { id: analyst.id, email: analyst.email };
    const ip = "198.51.100.7";
    const at = (minute: number) => new Date(Date.UTC(2026, 0, 10, 12, minute));
    const verification = { type: "verification", id: mine };
    // Created (the CPF typed), viewed (found through the index only), exported in a list, the images viewed.
    await recordEvent(
      { actor, ip, action: "verification.create", target: verification, subjectCpfHash: cpfHash(CPF), outcome: "success", at: at(1) },
      db,
    );
    await recordEvent({ actor, ip, action: "verification.view", target: verification, outcome: "success", at: at(2) }, db);
    await recordEvent(
      {
        actor,
        ip,
        action: "verification.export_subject",
        target: verification,
        subjectCpfHash: cpfHash(CPF),
        outcome: "success",
        details: { format: "csv" },
        at: at(3),
      },
      db,
    );
    await recordEvent(
      { actor, ip, action: "lookup.cpf_receita", target: { type: "cpf", cpf: CPF }, purpose: "Onboarding", outcome: "success", at: at(4) },
      db,
    );
    // Another person's events.
    await recordEvent(
      { actor, ip, action: "verification.view", target: { type: "verification", id: theirs }, outcome: "success", at: at(5) },
      db,
    );
    await recordEvent(
      { actor, ip, action: "lookup.cpf_history", target: { type: "cpf", cpf: OTHER_CPF }, purpose: "Other", outcome: "success", at: at(6) },
      db,
    );
    // A case about the person, with a note.
    await applyObservations(db, [observe(makeVerification({ publicId: mine, status: "review" }), TEST_SETTINGS)], TEST_SETTINGS);
    // A queue runner's note (notes are the assignee's or a cases.assign holder's).
    await addNote(db, { actor: { ...actor, permissions: ["cases.work", "cases.assign"] }, ip }, mine, "Documento conferido por telefone");
  });

  const ask = (body: unknown, { cookie = adminCookie, headers = {} }: { cookie?: string; headers?: Record<string, string> } = {}) =>
    POST(apiRequest("/api/privacy/reports", { method: "POST", cookie, body, headers: { "x-kyc-peer-address": "192.0.2.9", ...headers } }));

  it("lists the person's processings in time order, with who, from where and why, and never another person's", async () => {
    const response = await ask({ cpf: "529.982.247-25", locale: "en" });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const report = (await response.json()) as TitularReport;
    expect(report.cpfMasked).toBe("***.982.247-**");
    expect(report.verifications).toEqual([mine]);
    const actions = report.processings.map((item) => item.action);
    expect(actions.slice(0, 4)).toEqual(["verification.create", "verification.view", "verification.export_subject", "lookup.cpf_receita"]);
    expect(actions).toContain("case.note_add");
    expect(report.processings.every((item) => item.target?.id !== theirs)).toBe(true);
    expect(actions).not.toContain("lookup.cpf_history");
    const created = report.processings[0]!;
    expect(created).toMatchObject({
      label: "Verification created",
      actor: { name: "Ana Conceição", email: analystEmail },
      ip: "198.51.100.7",
    });
    expect(report.processings[3]!.purpose).toBe("Onboarding");
    expect(report.processings[2]!.label).toBe("Verification exported (people in it)");
    expect([...report.processings].map((item) => item.at)).toEqual(report.processings.map((item) => item.at).sort());
    expect(report.stored.indexEntries).toMatchObject([{ publicId: mine, refId: "ref-mine", documentMasked: "***.982.247-**" }]);
    expect(report.stored.cases).toMatchObject([{ publicId: mine, status: "open", notes: { count: 1 } }]);
    expect(JSON.stringify(report)).not.toContain(CPF);
    expect(JSON.stringify(report)).not.toContain("Documento conferido");
  });

  it("puts the request itself on the trail with the CPF's hash, never the CPF", async () => {
    expect((await ask({ cpf: CPF, format: "json" })).status).toBe(200);
    const [event] = await handle.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "privacy.report"), eq(auditEvents.targetHash, cpfHash(CPF))))
      .limit(1);
    expect(event).toMatchObject({ targetType: "cpf", target: "***.982.247-**", outcome: "success", ip: "192.0.2.9" });
    expect(JSON.stringify(event)).not.toContain(CPF);
    expect(logged.join("\n")).not.toContain(CPF);
  });

  it("refuses an invalid CPF with a 400 naming cpf, and refuses a member without the permission", async () => {
    const before = await handle.db.select().from(auditEvents).where(eq(auditEvents.action, "privacy.report"));
    const bad = await ask({ cpf: "529.982.247-26" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { fields: string[] } }).error.fields).toEqual(["cpf"]);
    expect((await ask({ cpf: CPF, format: "xml" })).status).toBe(400);
    expect((await ask({ cpf: CPF }, { cookie: analystCookie })).status).toBe(403);
    expect(await handle.db.select().from(auditEvents).where(eq(auditEvents.action, "privacy.report"))).toHaveLength(before.length);
  });

  it("asks for a step-up when the second factor is not recent", async () => {
    const plain = await sessionCookieFor(handle.db, await createTestStaff(handle.db, { role: "admin" }), { stepUp: false });
    const response = await ask({ cpf: CPF }, { cookie: plain });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("step_up_required");
  });

  it("writes the CSV with the audit export's conventions", async () => {
    const response = await ask({ cpf: CPF, format: "csv", locale: "pt-BR" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="titular-report-\d{8}-\d{6}\.csv"$/);
    // Read with the BOM kept (Response.text() drops it).
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await response.arrayBuffer());
    expect(text.startsWith("\uFEFFrecord,at,action,label,actor_name,actor_email,ip,purpose,outcome")).toBe(true);
    expect(text).toContain("processing,2026-01-10T09:01:00-03:00,verification.create,Verificação criada,Ana Conceição");
    expect(text).toContain(`stored.index_entry,`);
    expect(text).not.toContain(theirs);
    expect(text).not.toContain(CPF);
    expect(text.split("\r\n").length).toBeGreaterThan(5);
  });

  it("draws a PDF whose text holds the analyst's name and the action labels (Accept: application/pdf)", async () => {
    const response = await ask({ cpf: CPF, locale: "pt-BR" }, { headers: { accept: "application/pdf" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="titular-report-.*\.pdf"$/);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe("%PDF-");
    const text = (await pdfText(bytes)).replace(/\s+/g, " ");
    expect(text).toContain("Relatório de tratamento de dados pessoais");
    expect(text).toContain("***.982.247-**");
    expect(text).toContain("Ana Conceição");
    expect(text).toContain("Verificação criada");
    expect(text).toContain("Verificação aberta");
    expect(text).toContain("Consulta de CPF (Receita Federal)");
    expect(text).not.toContain(theirs);
    expect(text).not.toContain(CPF);
  });
  it("finds the person's events and index entries under an older audit key after a rotation", async () => {
    const oldKey = cpfHash(CPF);
    const rotated = randomUUID();
    await handle.db.insert(verificationIndex).values({ publicId: rotated, cpfHash: oldKey, documentMasked: "***.982.247-**" });
    await recordEvent(
      { actor: null, action: "webhook.receive", target: { type: "verification", id: rotated }, outcome: "success" },
      handle.db,
    );
    stubTestEnvironment({ AUDIT_HASH_SECRET: `2:rotated-audit-key-0123456789abcdefghijkl,1:${TEST_SECRETS.AUDIT_HASH_SECRET}` });
    try {
      expect(cpfHash(CPF)).not.toBe(oldKey);
      const report = await buildTitularReport(handle.db, CPF, { locale: "en" });
      expect(report.verifications).toEqual(expect.arrayContaining([mine, rotated]));
      expect(report.processings.map((item) => item.action)).toContain("verification.create");
      expect(report.processings.some((item) => item.target?.id === rotated)).toBe(true);
    } finally {
      stubTestEnvironment();
    }
  });
});
