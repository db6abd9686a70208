import { and, eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";

import { auditEvents } from "@/lib/audit-trail/server/tables";
import { caseEntries, cases } from "@/lib/cases/server/tables";
import { monitoringAlerts } from "@/lib/monitoring/server/tables";
import type { AlertNote, MonitoringAlert } from "@/lib/monitoring/types";
import { notifications } from "@/lib/notifications/server/tables";
import { createTestStaff, sessionCookieFor } from "@/test/auth";
import { describeEachDatabase } from "@/test/db";
import { withPartnersHarness } from "@/test/partners-ops";

import { POST as TAKE } from "./alerts/[id]/assignment/route";
import { POST as NOTE, GET as NOTES } from "./alerts/[id]/notes/route";
import { POST as DECIDE } from "./alerts/[id]/outcome/route";
import { GET as LIST } from "./alerts/route";

/*
 * The monitoring queue as Next calls it: an alert the screening opened is listed (document masked, what changed), taken
 * by one member (a second take is 409), decided by its holder only (another analyst 403), then listed as closed; a bad
 * outcome is named; every step is on the trail. A lead gives an alert to a member, who is told; the holder writes notes
 * (the case notes' rules, 400 naming `text`; the trail keeps the length, never the words), a member without the
 * permission gets 403. On both databases.
 */

const BASE = "http://localhost:3000/api/monitoring/alerts";

type Answer = Record<string, unknown> & {
  alerts?: MonitoringAlert[];
  notes?: AlertNote[];
  error?: { code: string; fields?: string[] };
};
async function call(response: Response | Promise<Response>) {
  const answered = await response;
  return { status: answered.status, body: (await answered.json()) as Answer };
}
describeEachDatabase("the monitoring queue's routes on $name", (kind) => {
  const h = withPartnersHarness({}, { clear: "nothing", kind });
  /** An approved case, as the screening's alerts hang on one. */
  const approved = (publicId: string) =>
    h.db.db
      .insert(cases)
      .values({ publicId, upstreamStatus: "approved", dueAt: new Date(), recommendation: "approve", outcomeState: "recorded" });
  const params = (id: string) => ({ params: Promise.resolve({ id }) });
  const NO_PARAMS = { params: Promise.resolve({}) };

  let viewerCookie = "";
  beforeAll(async () => {
    viewerCookie = await sessionCookieFor(h.db.db, await createTestStaff(h.db.db, { role: "viewer" }));
  });

  it("lists an alert, lets one member take it and its holder decide it", async () => {
    await approved("ver-monitored-1");
    const [alert] = await h.db.db
      .insert(monitoringAlerts)
      .values({ publicId: "ver-monitored-1", connectionId: "primary", documentMasked: "***.982.247-**", change: "list:OFAC" })
      .returning();
    const id = alert!.id;

    const open = await call(LIST(h.request(`${BASE}?status=open`, { cookie: h.analystCookie }), NO_PARAMS));
    expect(open.status).toBe(200);
    expect(open.body.alerts).toEqual([
      expect.objectContaining({ id, publicId: "ver-monitored-1", documentMasked: "***.982.247-**", change: "list:OFAC", assignee: null }),
    ]);

    expect((await call(TAKE(h.request(`${BASE}/${id}/assignment`, { method: "POST", cookie: h.analystCookie }), params(id)))).status).toBe(
      200,
    );
    const again = await call(TAKE(h.request(`${BASE}/${id}/assignment`, { method: "POST", cookie: h.adminCookie }), params(id)));
    expect([again.status, again.body.error?.code]).toEqual([409, "conflict"]);

    const bad = await call(
      DECIDE(h.request(`${BASE}/${id}/outcome`, { method: "POST", cookie: h.analystCookie, body: { outcome: "ignored" } }), params(id)),
    );
    expect([bad.status, bad.body.error?.fields]).toEqual([400, ["outcome"]]);
    const decided = await call(
      DECIDE(h.request(`${BASE}/${id}/outcome`, { method: "POST", cookie: h.analystCookie, body: { outcome: "confirmed" } }), params(id)),
    );
    expect(decided).toEqual({ status: 200, body: { id, outcome: "confirmed" } });

    const closed = await call(LIST(h.request(`${BASE}?status=closed`, { cookie: h.analystCookie }), NO_PARAMS));
    expect(closed.body.alerts).toEqual([expect.objectContaining({ id, status: "closed", outcome: "confirmed" })]);
    const steps = await h.db.db.select().from(auditEvents).where(eq(auditEvents.target, "ver-monitored-1"));
    expect(steps.map((event) => event.action)).toEqual(["monitoring.alert_assign", "monitoring.alert_outcome"]);
  });

  it("refuses the outcome to a member who neither holds the alert nor runs the queue, and a bad id by name", async () => {
    await approved("ver-monitored-2");
    const [alert] = await h.db.db
      .insert(monitoringAlerts)
      .values({ publicId: "ver-monitored-2", connectionId: "primary", documentMasked: null, change: "pep" })
      .returning();
    const id = alert!.id;
    const refused = await call(
      DECIDE(h.request(`${BASE}/${id}/outcome`, { method: "POST", cookie: h.analystCookie, body: { outcome: "cleared" } }), params(id)),
    );
    expect(refused.status).toBe(403);
    const byAdmin = await call(
      DECIDE(h.request(`${BASE}/${id}/outcome`, { method: "POST", cookie: h.adminCookie, body: { outcome: "cleared" } }), params(id)),
    );
    expect(byAdmin.status).toBe(200);
    const badId = await call(TAKE(h.request(`${BASE}/nope/assignment`, { method: "POST", cookie: h.analystCookie }), params("nope")));
    expect([badId.status, badId.body.error?.fields]).toEqual([400, ["id"]]);
  });

  it("lets a lead give an alert to a member, who is told, and its holder write notes the trail never reads", async () => {
    await approved("ver-monitored-3");
    const [alert] = await h.db.db
      .insert(monitoringAlerts)
      .values({ publicId: "ver-monitored-3", connectionId: "primary", documentMasked: null, change: "deceased" })
      .returning();
    const id = alert!.id;
    const assign = (cookie: string, assignee: string) =>
      call(TAKE(h.request(`${BASE}/${id}/assignment`, { method: "POST", cookie, body: { assignee } }), params(id)));
    expect((await assign(h.analystCookie, h.adminId)).status).toBe(403);
    expect(await assign(h.adminCookie, h.analystId)).toEqual({ status: 200, body: { id, assignee: h.analystId } });
    const told = await h.db.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, h.analystId), eq(notifications.kind, "monitoring_alert_assigned")));
    expect(told.map((row) => row.casePublicId)).toEqual(["ver-monitored-3"]);

    const note = (cookie: string, body: unknown) =>
      call(NOTE(h.request(`${BASE}/${id}/notes`, { method: "POST", cookie, body }), params(id)));
    const empty = await note(h.analystCookie, { text: "   " });
    expect([empty.status, empty.body.error?.fields]).toEqual([400, ["text"]]);
    expect((await note(viewerCookie, { text: "A viewer's note" })).status).toBe(403);
    const words = "Death certificate seen at the registry office";
    expect((await note(h.analystCookie, { text: words })).status).toBe(201);

    const read = await call(NOTES(h.request(`${BASE}/${id}/notes`, { cookie: viewerCookie }), params(id)));
    expect(read.body.notes).toEqual([expect.objectContaining({ text: words, redacted: false, unreadable: false })]);
    const [entry] = await h.db.db.select().from(caseEntries).where(eq(caseEntries.kind, "monitoring_note"));
    expect(entry!.text).not.toContain("registry");
    const trail = await h.db.db.select().from(auditEvents).where(eq(auditEvents.target, "ver-monitored-3"));
    expect(trail.map((event) => event.action)).toEqual([
      "monitoring.alert_assign",
      "monitoring.alert_note_add",
      "monitoring.alert_note_list",
    ]);
    expect(trail[1]!.details).toMatchObject({ change: "deceased", length: words.length });
    expect(JSON.stringify(trail)).not.toContain("registry");
  });
});
