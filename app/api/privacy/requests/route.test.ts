import { randomUUID } from "node:crypto";

import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";

import { POST as report } from "@/app/api/privacy/reports/route";
import { cpfHash, cpfHashes } from "@/lib/audit-trail/server/record";
import { auditEvents } from "@/lib/audit-trail/server/tables";
import { staffRoles } from "@/lib/auth/server/tables";
import type { StaffUserDto } from "@/lib/auth/types";
import { queryRows } from "@/lib/db/client";
import { setLogSink } from "@/lib/log";
import { membersHolding } from "@/lib/notifications/server/notify";
import { notifications } from "@/lib/notifications/server/tables";
import type { PrivacyRequestDto, PrivacyRequestListResponse } from "@/lib/privacy/requests";
import { notifyLateRequests } from "@/lib/privacy/server/late-requests";
import { listRequests } from "@/lib/privacy/server/requests";
import { privacyRequests } from "@/lib/privacy/server/tables";
import { apiRequest, createTestStaff, sessionCookieFor } from "@/test/auth";
import { describeEachDatabase, stubTestEnvironment, withProcessDatabase } from "@/test/db";

import { POST as close } from "./[id]/close/route";
import { GET, POST } from "./route";

/*
 * Titular requests on a clock: registered with the CPF kept only as its keyed hashes and masked form (the contact
 * sealed), every field named when refused before anything is stored, the open ones listed late first and then by
 * fewest days left, a request past its due time told to the privacy officers once however often the job runs (the
 * clock driven through the job's `now`), closed with what was sent, and every step on the audit trail.
 */

const CPF = "52998224725";
const OTHER_CPF = "11144477735";
const DAY = 86_400_000;
const logged: string[] = [];
type Json = Record<string, unknown>;
const read = async <T = Json>(response: Response) => (await response.json()) as T;
const params = (id: string) => ({ params: Promise.resolve({ id }) });
const daysAgo = (days: number, from = Date.now()) => new Date(from - days * DAY).toISOString();

beforeAll(() => {
  stubTestEnvironment();
  setLogSink((line) => logged.push(JSON.stringify(line)));
});
afterAll(() => {
  setLogSink(undefined);
  vi.unstubAllEnvs();
});

describeEachDatabase("titular requests on $name", ({ open }) => {
  const handle = withProcessDatabase(open);
  let admin: StaffUserDto;
  let adminCookie: string;
  // A privacy officer without personal_data.unmasked (a custom role: privacy.requests and privacy.report).
  let officer: StaffUserDto;
  let officerCookie: string;
  let auditor: StaffUserDto;
  let auditorCookie: string;
  let analystCookie: string;
  let analyst: StaffUserDto;

  beforeAll(async () => {
    admin = await createTestStaff(handle.db, { role: "admin" });
    const [role] = await handle.db
      .insert(staffRoles)
      .values({ name: `Privacy officer ${randomUUID().slice(0, 8)}`, permissions: ["privacy.requests", "privacy.report"] })
      .returning({ id: staffRoles.id });
    officer = await createTestStaff(handle.db, { role: role!.id as never });
    auditor = await createTestStaff(handle.db, { role: "auditor" });
    analyst = await createTestStaff(handle.db, { role: "analyst" });
    adminCookie = await sessionCookieFor(handle.db, admin);
    officerCookie = await sessionCookieFor(handle.db, officer);
    auditorCookie = await sessionCookieFor(handle.db, auditor);
    analystCookie = await sessionCookieFor(handle.db, analyst);
  });

  const register = (body: unknown, cookie = adminCookie) =>
    POST(apiRequest("/api/privacy/requests", { method: "POST", cookie, body, headers: { "x-kyc-peer-address": "192.0.2.9" } }));
  const registered = async (body: Json, cookie = adminCookie): Promise<PrivacyRequestDto> => {
    const response = await register({ cpf: CPF, kind: "access", channel: "email", ...body }, cookie);
    expect(response.status).toBe(201);
    return (await read<{ request: PrivacyRequestDto }>(response)).request;
  };
  const closeWith = (id: string, body: unknown, cookie = adminCookie) =>
    close(apiRequest(`/api/privacy/requests/${id}/close`, { method: "POST", cookie, body }), params(id));
  const list = async (cookie = adminCookie) => {
    const response = await GET(apiRequest("/api/privacy/requests", { cookie }));
    expect(response.status).toBe(200);
    return read<PrivacyRequestListResponse>(response);
  };
  const countRequests = async () => (await handle.db.select({ id: privacyRequests.id }).from(privacyRequests)).length;

  it("keeps the CPF only as its keyed hashes and masked form, and the contact sealed (the row read as stored)", async () => {
    const request = await registered({ cpf: "529.982.247-25", receivedAt: daysAgo(2), contact: "maria.titular@example.com" });
    expect(request).toMatchObject({ documentMasked: "***.982.247-**", kind: "access", state: "open", late: false, daysLeft: 13 });
    // The admin holds personal_data.unmasked: the contact as given; the officer does not: masked.
    expect(request.contact).toBe("maria.titular@example.com");
    const [row] = await queryRows<Record<string, unknown>>(handle.db, sql`select * from privacy_requests where id = ${request.id}`);
    const stored = JSON.stringify(row);
    for (const clear of [CPF, "529.982.247-25", "maria.titular"]) expect(stored).not.toContain(clear);
    expect(row).toMatchObject({ cpf_hashes: cpfHashes(CPF), document_masked: "***.982.247-**", contact_masked: "m***@example.com" });
    expect(String(row!.contact_sealed)).not.toContain("@");
    const seen = (await list(officerCookie)).open.find((item) => item.id === request.id);
    expect(seen).toMatchObject({ contact: "m***@example.com", contactMasked: true });
    expect(logged.join("\n")).not.toContain(CPF);
  });

  it.each([
    [{ cpf: "529.982.247-24" }, "cpf"],
    [{ cpf: undefined }, "cpf"],
    [{ kind: "delete_everything" }, "kind"],
    [{ kind: undefined }, "kind"],
    [{ channel: "pigeon" }, "channel"],
    [{ receivedAt: "yesterday" }, "receivedAt"],
    [{ receivedAt: "2026-01-10T10:00:00" }, "receivedAt"],
    [{ receivedAt: new Date(Date.now() + 2 * DAY).toISOString() }, "receivedAt"],
    [{ contact: "x".repeat(201) }, "contact"],
    [{ contact: "Titular 529.982.247-25" }, "contact"],
    [{ contact: "a\u202Eb@example.com" }, "contact"],
    [{ extra: true }, "(input)"],
  ])("refuses %j with a 400 naming %s, storing nothing and recording nothing", async (change, field) => {
    const before = await countRequests();
    const opened = (await handle.db.select().from(auditEvents).where(eq(auditEvents.action, "privacy.request.open"))).length;
    const response = await register({ cpf: CPF, kind: "access", channel: "email", receivedAt: daysAgo(1), ...change });
    expect(response.status).toBe(400);
    expect((await read<{ error: { fields: string[] } }>(response)).error.fields).toContain(field);
    expect(await countRequests()).toBe(before);
    expect(await handle.db.select().from(auditEvents).where(eq(auditEvents.action, "privacy.request.open"))).toHaveLength(opened);
  });

  it("refuses a member without privacy.requests (403) on every route, the auditor too (it builds reports, changes nothing)", async () => {
    for (const cookie of [analystCookie, auditorCookie]) {
      expect((await register({ cpf: CPF, kind: "access", channel: "email", receivedAt: daysAgo(1) }, cookie)).status).toBe(403);
      expect((await GET(apiRequest("/api/privacy/requests", { cookie }))).status).toBe(403);
      expect((await closeWith(randomUUID(), { answer: "Sent", sent: "written" }, cookie)).status).toBe(403);
    }
    const response = await register({ cpf: OTHER_CPF, kind: "information", channel: "phone", receivedAt: daysAgo(1) }, officerCookie);
    expect(response.status).toBe(201);
  });

  it("lists the open requests late first (the longest late on top), then by fewest days left", async () => {
    const fresh = await registered({ kind: "portability", receivedAt: daysAgo(1) });
    const lateLong = await registered({ kind: "correction", receivedAt: daysAgo(25) });
    const soon = await registered({ kind: "objection", channel: "letter", receivedAt: daysAgo(12) });
    const lateShort = await registered({ kind: "information", channel: "web_form", receivedAt: daysAgo(16) });
    const mine = [fresh.id, lateLong.id, soon.id, lateShort.id];
    const { open, dueDays } = await list();
    expect(dueDays).toBe(15);
    const order = open.filter((item) => mine.includes(item.id));
    expect(order.map((item) => item.id)).toEqual([lateLong.id, lateShort.id, soon.id, fresh.id]);
    expect(order.map((item) => [item.late, item.daysLeft])).toEqual([
      [true, -10],
      [true, -1],
      [false, 3],
      [false, 14],
    ]);
    // Across the whole list: every late one before every one on time, days left never decreasing.
    const days = open.map((item) => item.daysLeft);
    expect(days).toEqual([...days].sort((a, b) => a - b));
  });

  it("tells the privacy officers once when a request passes its 15 days; a second run tells nobody", async () => {
    const start = Date.now();
    const request = await registered({ kind: "erasure", channel: "in_person", receivedAt: daysAgo(10, start) });
    const ours = and(eq(notifications.kind, "privacy_request_late"), eq(notifications.dedupeKey, `request:${request.id}`));
    const lateEvents = async () =>
      handle.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.action, "privacy.request.late"), eq(auditEvents.target, request.id)));

    // Day 10: on time; the job tells nobody about it.
    const early = await notifyLateRequests(handle.db, { holder: "instance-a", now: new Date(start) });
    expect(early.ran).toBe(true);
    expect(early.told.map((entry) => entry.requestId)).not.toContain(request.id);
    expect(await handle.db.select().from(notifications).where(ours)).toHaveLength(0);

    // Day 16: late in the queue, and told to each officer (a member holding privacy.requests), never to an auditor.
    const later = new Date(start + 6 * DAY);
    const seen = (await listRequests(handle.db, { id: admin.id, unmasked: true }, later)).open.find((item) => item.id === request.id);
    expect(seen).toMatchObject({ late: true, daysLeft: -1, lateNotifiedAt: null });
    const first = await notifyLateRequests(handle.db, { holder: "instance-a", now: later });
    const officers = (await membersHolding(handle.db, "privacy.requests")).map((member) => member.id);
    expect(officers).toEqual(expect.arrayContaining([admin.id, officer.id]));
    const told = await handle.db.select().from(notifications).where(ours);
    expect(told.map((row) => row.userId).sort()).toEqual([...officers].sort());
    expect(told.map((row) => row.userId)).not.toContain(analyst.id);
    expect(told.map((row) => row.userId)).not.toContain(auditor.id);
    expect(told[0]).toMatchObject({ link: "/admin/privacy", casePublicId: "", connectionId: null });
    expect(first.told).toContainEqual({ requestId: request.id, members: officers.length });
    expect(await lateEvents()).toHaveLength(1);
    expect((await lateEvents())[0]).toMatchObject({ actorId: null, outcome: "success", targetHash: cpfHash(CPF) });

    // A second run (another instance, a day on): nobody is told again, nothing more on the trail.
    const second = await notifyLateRequests(handle.db, { holder: "instance-b", now: new Date(start + 7 * DAY) });
    expect(second.ran).toBe(true);
    expect(second.told.map((entry) => entry.requestId)).not.toContain(request.id);
    expect(await handle.db.select().from(notifications).where(ours)).toHaveLength(officers.length);
    expect(await lateEvents()).toHaveLength(1);
    const after = (await listRequests(handle.db, { id: admin.id, unmasked: true }, later)).open.find((item) => item.id === request.id);
    expect(after?.lateNotifiedAt).toBe(later.toISOString());
  });

  it("closes a request with a written answer, on the trail; a second close is 409; an unknown id 404", async () => {
    const request = await registered({ kind: "information", receivedAt: daysAgo(3), contact: "+55 11 91234-5678" });
    const refused = await closeWith(request.id, { answer: "", sent: "fax" });
    expect(refused.status).toBe(400);
    expect((await read<{ error: { fields: string[] } }>(refused)).error.fields).toEqual(expect.arrayContaining(["answer", "sent"]));
    const answer = "Enviamos por e-mail as finalidades e os compartilhamentos (LGPD art. 9).";
    const response = await closeWith(request.id, { answer, sent: "written" });
    expect(response.status).toBe(200);
    const closed = (await read<{ request: PrivacyRequestDto }>(response)).request;
    expect(closed).toMatchObject({ state: "closed", sent: "written", answer, late: false, closedBy: { id: admin.id } });
    const [row] = await queryRows<Record<string, unknown>>(handle.db, sql`select * from privacy_requests where id = ${request.id}`);
    expect(JSON.stringify(row)).not.toContain("finalidades");
    expect(JSON.stringify(row)).not.toContain("91234");
    expect((await closeWith(request.id, { answer, sent: "written" })).status).toBe(409);
    expect((await closeWith(randomUUID(), { answer, sent: "written" })).status).toBe(404);
    // The refused second close is on the trail too, as a failure.
    const refusals = await handle.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "privacy.request.close"), eq(auditEvents.target, request.id), eq(auditEvents.outcome, "failure")));
    expect(refusals.map((event) => event.details)).toEqual([expect.objectContaining({ sent: "written", reason: "conflict" })]);
    const { open, closed: recent } = await list();
    expect(open.map((item) => item.id)).not.toContain(request.id);
    expect(recent.map((item) => item.id)).toContain(request.id);

    const events = await handle.db
      .select()
      .from(auditEvents)
      .where(
        and(
          inArray(auditEvents.action, ["privacy.request.open", "privacy.request.close"]),
          eq(auditEvents.target, request.id),
          eq(auditEvents.outcome, "success"),
        ),
      )
      .orderBy(auditEvents.id);
    expect(events.map((event) => [event.action, event.targetType, event.targetHash, event.actorId])).toEqual([
      ["privacy.request.open", "privacy_request", cpfHash(CPF), admin.id],
      ["privacy.request.close", "privacy_request", cpfHash(CPF), admin.id],
    ]);
    expect(events[0]!.details).toMatchObject({ kind: "information", channel: "email", dueDays: 15, contactGiven: true });
    expect(events[1]!.details).toMatchObject({ sent: "written", late: false, answerLength: answer.length });
    expect(JSON.stringify(events)).not.toContain("finalidades");
    expect(JSON.stringify(events)).not.toContain("91234");
  });

  it("closes with the report only once one was built for the person since receipt, and links its event", async () => {
    const request = await registered({ cpf: OTHER_CPF, kind: "access", receivedAt: daysAgo(1) });
    const early = await closeWith(request.id, { answer: "Relatório enviado", sent: "report" });
    expect(early.status).toBe(409);
    const built = await report(
      apiRequest("/api/privacy/reports", { method: "POST", cookie: adminCookie, body: { cpf: OTHER_CPF, locale: "en" } }),
    );
    expect(built.status).toBe(200);
    // The person's own report lists the request among the processings of their data (by the CPF's keyed hash).
    const processings = (await read<{ processings: Array<{ action: string; label: string; target: { id: string } | null }> }>(built))
      .processings;
    expect(processings).toContainEqual(
      expect.objectContaining({
        action: "privacy.request.open",
        label: "Titular's request registered (LGPD art. 18)",
        target: expect.objectContaining({ id: request.id }),
      }),
    );
    const response = await closeWith(request.id, { answer: "Relatório enviado por e-mail", sent: "report" });
    expect(response.status).toBe(200);
    const closed = (await read<{ request: PrivacyRequestDto }>(response)).request;
    const [reportEvent] = await handle.db
      .select({ id: auditEvents.id })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "privacy.report"), eq(auditEvents.targetHash, cpfHash(OTHER_CPF))));
    expect(closed).toMatchObject({ sent: "report", reportEventId: reportEvent!.id, erasureId: null });
    // An erasure answer needs an erasure asked since receipt: none was.
    const other = await registered({ cpf: OTHER_CPF, kind: "erasure", receivedAt: daysAgo(1) });
    expect((await closeWith(other.id, { answer: "Eliminado", sent: "erasure" })).status).toBe(409);
  });
});
