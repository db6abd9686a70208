import { randomUUID } from "node:crypto";

import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";

import { GET as auditLog } from "@/app/api/audit/route";
import { GET as caseDetail } from "@/app/api/cases/[publicId]/route";
import { POST as openRoute } from "@/app/api/cases/[publicId]/suspicious-activity/route";
import { GET as notificationsList } from "@/app/api/notifications/route";
import { POST as titularReport } from "@/app/api/privacy/reports/route";
import { cpfHash } from "@/lib/audit-trail/server/record";
import { auditEvents } from "@/lib/audit-trail/server/tables";
import type { SuspiciousActivityDto } from "@/lib/cases/coaf";
import { caseEntries, cases, suspiciousActivityReports, verificationIndex } from "@/lib/cases/server/tables";
import { confirmErasure, requestErasure } from "@/lib/privacy/server/erasure";
import { buildTitularReport } from "@/lib/privacy/server/titular-report";
import { apiRequest, createTestStaff, sessionCookieFor } from "@/test/auth";
import { describeEachDatabase, stubTestEnvironment, withProcessDatabase } from "@/test/db";
import { pdfText } from "@/test/pdf-text";

import { GET as dossierRoute } from "./[id]/dossier/route";
import { POST as filedRoute } from "./[id]/filed/route";
import { GET as listRoute } from "./route";

/*
 * Suspicious-activity reports to COAF: a draft opened from a case (summary sealed, every bad field named before
 * anything is stored, step-up asked), its SISCOAF protocol recorded once, listed with its deadline; and no tipping
 * off (Lei 9.613/98 art. 11 § 2): the titular report, the audit trail and its CSV for a member without coaf.report,
 * the case and the notifications say nothing of it, and an erasure of the person leaves it in place.
 */

const CPF = "52998224725";
const DAY = 86_400_000;
const PROTOCOL = "SISCOAF-2026-778899";
const OTHER_VERIFICATION = randomUUID();
type Json = Record<string, unknown>;

beforeAll(() => stubTestEnvironment({ FOUR_EYES_INDEPENDENCE_HOURS: "0" }));
afterAll(() => vi.unstubAllEnvs());

/** Whether an answer tells anything of the report: its id, its protocol, the words. */
function tipsOff(text: string, reportId: string): string[] {
  return [
    text.includes(reportId) && "the report's id",
    text.includes(PROTOCOL) && "the protocol",
    /coaf/i.test(text) && "COAF",
    /suspicious|suspeit/i.test(text) && "suspicious",
  ].filter((found): found is string => typeof found === "string");
}

describeEachDatabase("suspicious-activity reports on $name", ({ open }) => {
  const handle = withProcessDatabase(open);
  let adminCookie: string;
  let plainAdminCookie: string;
  let auditorCookie: string;
  let analystCookie: string;
  let publicId: string;

  beforeAll(async () => {
    const admin = await createTestStaff(handle.db, { role: "admin" });
    adminCookie = await sessionCookieFor(handle.db, admin);
    plainAdminCookie = await sessionCookieFor(handle.db, admin, { stepUp: false });
    auditorCookie = await sessionCookieFor(handle.db, await createTestStaff(handle.db, { role: "auditor" }));
    analystCookie = await sessionCookieFor(handle.db, await createTestStaff(handle.db, { role: "analyst" }));
    publicId = randomUUID();
    await handle.db
      .insert(verificationIndex)
      .values({ publicId, refId: `ref-${publicId}`, cpfHash: cpfHash(CPF), documentMasked: "***.982.247-**" });
    const [row] = await handle.db
      .insert(cases)
      .values({
        publicId,
        upstreamStatus: "review",
        documentMasked: "***.982.247-**",
        openedAt: new Date(Date.now() - 3 * DAY),
        dueAt: new Date(Date.now() + DAY),
      })
      .returning({ id: cases.id });
    await handle.db.insert(caseEntries).values([
      { caseId: row!.id, kind: "opened", details: { status: "review" } },
      { caseId: row!.id, kind: "outcome", details: { recommendation: "reprove", reasons: ["document_mismatch"], state: "recorded" } },
    ]);
    // Another verification of the same person, which the dossier lists.
    await handle.db.insert(verificationIndex).values({
      publicId: OTHER_VERIFICATION,
      refId: `ref-${OTHER_VERIFICATION}`,
      cpfHash: cpfHash(CPF),
      documentMasked: "***.982.247-**",
    });
  });

  const openReport = (body: unknown, cookie = adminCookie, id = publicId) =>
    openRoute(apiRequest(`/api/cases/${id}/suspicious-activity`, { method: "POST", cookie, body }), {
      params: Promise.resolve({ publicId: id }),
    });
  const file = (id: string, body: unknown, cookie = adminCookie) =>
    filedRoute(apiRequest(`/api/suspicious-activity/${id}/filed`, { method: "POST", cookie, body }), { params: Promise.resolve({ id }) });
  const dossier = (id: string, format: string, cookie = adminCookie) =>
    dossierRoute(apiRequest(`/api/suspicious-activity/${id}/dossier?format=${format}`, { cookie }), { params: Promise.resolve({ id }) });
  const rowCount = async () => (await handle.db.select({ id: suspiciousActivityReports.id }).from(suspiciousActivityReports)).length;

  it("refuses each bad field by name before anything is stored, and asks for a fresh second factor", async () => {
    const before = await rowCount();
    const response = await openReport({ summary: " ", grounds: ["nothing_known"], operations: [{ date: "2026-13-01", amount: -1 }] });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { code: string; fields: string[] } };
    expect(error.code).toBe("validation");
    expect(error.fields).toEqual(
      expect.arrayContaining(["summary", "grounds.0", "operations.0.date", "operations.0.amount", "operations.0.description"]),
    );
    expect(((await (await openReport({ summary: "x", grounds: [] })).json()) as { error: { fields: string[] } }).error.fields).toEqual([
      "grounds",
    ]);
    const plain = await openReport({ summary: "Cash deposits split under the threshold", grounds: ["other"] }, plainAdminCookie);
    expect(plain.status).toBe(401);
    expect(((await plain.json()) as { error: { code: string } }).error.code).toBe("step_up_required");
    expect((await openReport({ summary: "x", grounds: ["other"] }, analystCookie)).status).toBe(403);
    expect(await rowCount()).toBe(before);
  });

  it("opens a draft with its summary sealed and the event in the same transaction, records the protocol once, lists it with its deadline", async () => {
    const summary = "Cash deposits split under the reporting threshold by a third party";
    const response = await openReport({
      summary,
      grounds: ["third_party_operation", "other", "other"],
      operations: [{ date: "2026-11-20", amount: 9900.5, description: "Cash deposit at branch 0042" }],
    });
    expect(response.status).toBe(201);
    const { report } = (await response.json()) as { report: SuspiciousActivityDto };
    expect(report).toMatchObject({ status: "draft", casePublicId: publicId, documentMasked: "***.982.247-**", summary, protocol: null });
    expect(report.grounds).toEqual(["third_party_operation", "other"]);
    const [stored] = await handle.db.select().from(suspiciousActivityReports).where(eq(suspiciousActivityReports.id, report.id));
    expect(stored!.summarySealed).toMatch(/^v1\./);
    expect(stored!.summarySealed).not.toContain("threshold");
    const events = await handle.db.select().from(auditEvents).where(eq(auditEvents.target, report.id));
    expect(events.map((event) => [event.action, event.targetType, event.targetHash])).toEqual([
      ["coaf.report_open", "suspicious_activity_report", null],
    ]);

    // Undecided case opened three days ago, deadline one day after its opening: overdue while a draft.
    const list = (await (await listRoute(apiRequest("/api/suspicious-activity", { cookie: adminCookie }))).json()) as {
      reports: SuspiciousActivityDto[];
      deadlineDays: number;
    };
    expect(list.deadlineDays).toBe(1);
    const listed = list.reports.find((entry) => entry.id === report.id)!;
    expect(listed.overdue).toBe(true);
    expect(new Date(listed.deadline).getTime() - stored!.openedAt.getTime()).toBeLessThan(-DAY);

    expect((await file(report.id, { protocol: "", filedAt: "yesterday" })).status).toBe(400);
    const filedAt = new Date(Date.now() - 3600_000).toISOString();
    const filed = await file(report.id, { protocol: PROTOCOL, filedAt });
    expect(filed.status).toBe(200);
    expect(((await filed.json()) as { report: SuspiciousActivityDto }).report).toMatchObject({
      status: "filed",
      protocol: PROTOCOL,
      overdue: false,
    });
    const again = await file(report.id, { protocol: "OTHER-1", filedAt });
    expect(again.status).toBe(409);
    expect((await file(randomUUID(), { protocol: "X-1", filedAt })).status).toBe(404);
    const actions = (await handle.db.select().from(auditEvents).where(eq(auditEvents.target, report.id))).map(
      (e) => `${e.action}:${e.outcome}`,
    );
    expect(actions).toEqual(["coaf.report_open:success", "coaf.report_filed:success", "coaf.report_filed:failure"]);
  });

  it("exports the dossier as JSON and PDF with the case's facts, audited on the report; 403 without coaf.report, 404 for no report", async () => {
    const summary = "Deposits from accounts of unrelated third parties";
    const { report } = (await (
      await openReport({
        summary,
        grounds: ["third_party_operation", "inconsistent_identity"],
        operations: [{ date: "2026-11-02", amount: 15000, description: "Transfer from an unrelated account" }],
      })
    ).json()) as { report: SuspiciousActivityDto };
    expect((await file(report.id, { protocol: PROTOCOL, filedAt: new Date(Date.now() - 60_000).toISOString() })).status).toBe(200);

    const asJson = await dossier(report.id, "json");
    expect(asJson.status).toBe(200);
    expect(asJson.headers.get("content-disposition")).toContain(`coaf-dossier-${publicId}.json`);
    const body = (await asJson.json()) as Json & {
      report: SuspiciousActivityDto;
      case: Json;
      decisions: Json[];
      samePerson: Json[];
      timeline: Json[];
    };
    expect(body.report).toMatchObject({
      id: report.id,
      summary,
      status: "filed",
      protocol: PROTOCOL,
      grounds: ["third_party_operation", "inconsistent_identity"],
    });
    expect(body.case).toMatchObject({ publicId, documentMasked: "***.982.247-**" });
    expect(body.decisions).toEqual([
      expect.objectContaining({ kind: "outcome", recommendation: "reprove", reasons: ["document_mismatch"] }),
    ]);
    expect(body.timeline.map((entry) => entry.kind)).toEqual(["opened", "outcome"]);
    expect(body.samePerson).toEqual([expect.objectContaining({ publicId: OTHER_VERIFICATION })]);
    // No upstream here: the dossier says the service could not be read and keeps the case's facts.
    expect(body.verification).toBeNull();
    expect(body.verificationError).toEqual(expect.any(String));
    expect(JSON.stringify(body)).not.toContain(CPF);

    const asPdf = await dossier(report.id, "pdf");
    expect(asPdf.status).toBe(200);
    expect(asPdf.headers.get("content-type")).toBe("application/pdf");
    // In the member's language (pt-BR by default): the grounds' and reasons' labels.
    const text = (await pdfText(new Uint8Array(await asPdf.arrayBuffer()))).replace(/\s+/g, " ");
    for (const fact of [
      summary,
      "Operação em nome de terceiro",
      "Dados de identificação inconsistentes",
      PROTOCOL,
      publicId,
      "Dados do documento não conferem",
      OTHER_VERIFICATION,
    ]) {
      expect(text).toContain(fact);
    }
    expect(text).not.toContain(CPF);
    expect(text).not.toContain("529.982.247-25");

    const exports = (await handle.db.select().from(auditEvents).where(eq(auditEvents.target, report.id)))
      .filter((event) => event.action === "coaf.dossier_export")
      .map((event) => [event.targetType, event.targetHash, event.outcome, (event.details as Json).format]);
    expect(exports).toEqual([
      ["suspicious_activity_report", null, "success", "json"],
      ["suspicious_activity_report", null, "success", "pdf"],
    ]);

    expect((await dossier(report.id, "json", analystCookie)).status).toBe(403);
    expect((await dossier(report.id, "json", auditorCookie)).status).toBe(403);
    expect((await dossier(randomUUID(), "json")).status).toBe(404);
    expect((await dossier("not-a-report", "pdf")).status).toBe(404);
    const bad = await dossier(report.id, "docx");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { fields: string[] } }).error.fields).toEqual(["format"]);
  });

  it("never tips the person off: titular report, audit trail and CSV without coaf.report, case, notifications; an erasure leaves it", async () => {
    const { report } = (await (await openReport({ summary: "Structured deposits", grounds: ["other"] })).json()) as {
      report: SuspiciousActivityDto;
    };
    expect((await file(report.id, { protocol: PROTOCOL, filedAt: new Date().toISOString() })).status).toBe(200);
    // Its dossier exported: still nothing for the person.
    expect((await dossier(report.id, "pdf")).status).toBe(200);

    const titular = await titularReport(apiRequest("/api/privacy/reports", { method: "POST", cookie: adminCookie, body: { cpf: CPF } }));
    expect(titular.status).toBe(200);
    const titularText = await titular.text();
    expect(titularText).toContain(publicId);
    expect(tipsOff(titularText, report.id)).toEqual([]);

    // The auditor reads the trail (and exports it) without coaf.report; the admin holds it and sees the events.
    const trail = (cookie: string, query = "") => auditLog(apiRequest(`/api/audit${query}`, { cookie }));
    const auditorPage = await trail(auditorCookie, "?limit=200");
    expect(auditorPage.status).toBe(200);
    expect(tipsOff(await auditorPage.text(), report.id)).toEqual([]);
    const auditorCsv = await trail(auditorCookie, "?format=csv");
    expect(auditorCsv.status).toBe(200);
    expect(tipsOff(await auditorCsv.text(), report.id)).toEqual([]);
    expect(tipsOff(await (await trail(auditorCookie, "?action=coaf.report_filed")).text(), report.id)).toEqual([]);
    expect(await (await trail(adminCookie, "?action=coaf.report_filed")).text()).toContain(report.id);

    for (const cookie of [analystCookie, auditorCookie, adminCookie]) {
      const detail = await caseDetail(apiRequest(`/api/cases/${publicId}`, { cookie }), { params: Promise.resolve({ publicId }) });
      expect(detail.status).toBe(200);
      const text = await detail.text();
      expect(text).toContain(publicId);
      expect(tipsOff(text, report.id)).toEqual([]);
      const bell = await notificationsList(apiRequest("/api/notifications", { cookie }));
      expect(tipsOff(await bell.text(), report.id)).toEqual([]);
    }

    // An erasure of the person (asked by one member, confirmed by another) leaves the report as it was.
    const asker = await createTestStaff(handle.db, { role: "admin" });
    const confirmer = await createTestStaff(handle.db, { role: "admin" });
    const context = (member: { id: string; email: string }) => ({ actor: { id: member.id, email: member.email }, ip: "203.0.113.7" });
    const erasure = await requestErasure(handle.db, context(asker), { cpf: CPF, reason: "Titular asked by email" });
    await confirmErasure(handle.db, context(confirmer), erasure.id);
    const [kept] = await handle.db.select().from(suspiciousActivityReports).where(eq(suspiciousActivityReports.id, report.id));
    expect(kept).toMatchObject({ status: "filed", protocol: PROTOCOL, grounds: ["other"] });
    const list = (await (await listRoute(apiRequest("/api/suspicious-activity", { cookie: adminCookie }))).json()) as { reports: Json[] };
    expect(list.reports.find((entry) => entry.id === report.id)).toMatchObject({ summary: "Structured deposits" });
    const after = await buildTitularReport(handle.db, CPF, { locale: "pt-BR" });
    expect(tipsOff(JSON.stringify(after), report.id)).toEqual([]);
  });
});
