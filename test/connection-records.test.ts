import { eq } from "drizzle-orm";
import { expect, it } from "vitest";

import { POST as ASSIGN } from "@/app/api/cases/[publicId]/assignment/route";
import { GET as NOTIFICATIONS } from "@/app/api/notifications/route";
import { GET as CALLS } from "@/app/api/upstream/calls/route";
import { GET as READ_CROP, PUT as SET_CROP } from "@/app/api/verifications/[publicId]/crop/route";
import { GET as LIST } from "@/app/api/verifications/route";
import { DELETE as DELETE_VIEW } from "@/app/api/views/[id]/route";
import { POST as SAVE_VIEW, GET as VIEWS } from "@/app/api/views/route";
import { sendOverdueDigests } from "@/lib/cases/server/overdue-digest";
import { cases } from "@/lib/cases/server/tables";
import { setGrants } from "@/lib/connections/server/access";
import type { UpstreamCallsReport } from "@/lib/integrations/types";
import { notify } from "@/lib/notifications/server/notify";
import { notificationCases, notifications } from "@/lib/notifications/server/tables";
import type { NotificationsResponse } from "@/lib/notifications/types";
import { createTestStaff, sessionCookieFor } from "@/test/auth";
import { noParams, ORIGIN, SCOPE_ENV, scopeHelpers, withId } from "@/test/connection-support";
import { describeEachDatabase } from "@/test/db";
import { json, withPartnersHarness } from "@/test/partners-ops";

/*
 * Data never mixed (issue 33, item 3), the records beyond cases and events: notifications, saved views, document crops
 * and the upstream call counters each belong to one connection, against a real sandbox and its three connections
 * (test/connection-support.ts), on PGlite and PostgreSQL. A member given the sandbox only is never told of, nor
 * given, a production case.
 */

describeEachDatabase("notifications, views, crops and call counts per connection, on $name", (kind) => {
  const h = withPartnersHarness(SCOPE_ENV, { kind });
  const { queueIds, syncAll } = scopeHelpers(h);

  async function sandboxOnly(): Promise<{ id: string; cookie: string }> {
    const staff = await createTestStaff(h.db.db, { role: "analyst" });
    await setGrants(h.db.db, staff.id, [{ connectionId: "primary", withheld: [] }]);
    return { id: staff.id, cookie: await sessionCookieFor(h.db.db, staff) };
  }

  const inbox = async (cookie: string) =>
    json<NotificationsResponse>(await NOTIFICATIONS(h.request(`${ORIGIN}/api/notifications`, { cookie }), noParams));

  it("a production case is told only to members who may use production, linked under it", async () => {
    await syncAll();
    const [theirs] = await queueIds("production");
    const limited = await sandboxOnly();
    const everywhere = await createTestStaff(h.db.db, { role: "analyst" });
    const made = await notify(h.db.db, { userIds: [limited.id, everywhere.id], kind: "case_assigned", casePublicId: theirs! });
    expect(made.created).toBe(1);
    const { items } = await inbox(await sessionCookieFor(h.db.db, everywhere));
    expect(items.map((item) => [item.casePublicId, item.href, item.connection?.id])).toEqual([
      [theirs, `/c/production/verifications/${theirs}`, "production"],
    ]);
    expect((await inbox(limited.cookie)).items).toEqual([]);
  });

  it("a notification of a connection taken from the member since is no longer listed, nor counted unread", async () => {
    await syncAll();
    const [theirs] = await queueIds("production");
    const [ours] = await queueIds("primary");
    const staff = await createTestStaff(h.db.db, { role: "analyst" });
    for (const publicId of [theirs!, ours!]) await notify(h.db.db, { userIds: [staff.id], kind: "case_assigned", casePublicId: publicId });
    const cookie = await sessionCookieFor(h.db.db, staff);
    expect((await inbox(cookie)).unread).toBe(2);
    await setGrants(h.db.db, staff.id, [{ connectionId: "primary", withheld: [] }]);
    const after = await inbox(cookie);
    expect(after.items.map((item) => item.casePublicId)).toEqual([ours]);
    expect(after.unread).toBe(1);
  });

  it("a production case cannot be assigned to a member given the sandbox only", async () => {
    await syncAll();
    const [theirs] = await queueIds("production");
    const limited = await sandboxOnly();
    const assign = await ASSIGN(
      h.request(`${ORIGIN}/api/cases/${theirs}/assignment?connection=production`, {
        method: "POST",
        cookie: h.adminCookie,
        body: { assignee: limited.id },
      }),
      withId(theirs!),
    );
    expect(assign.status).toBe(400);
    expect(await json(assign)).toMatchObject({ error: { fields: ["assignee"] } });
    const [row] = await h.db.db.select({ assigneeId: cases.assigneeId }).from(cases).where(eq(cases.publicId, theirs!));
    expect(row?.assigneeId).not.toBe(limited.id);
  });

  it("overdue work makes one digest per connection, each opening that connection's queue and covering its cases only", async () => {
    await syncAll();
    const lead = await createTestStaff(h.db.db, { role: "admin" });
    const [theirs] = await queueIds("production");
    const [ours] = await queueIds("other-integration");
    const past = new Date(Date.now() - 86_400_000);
    for (const publicId of [theirs!, ours!])
      await h.db.db.update(cases).set({ assigneeId: lead.id, dueAt: past }).where(eq(cases.publicId, publicId));
    await sendOverdueDigests(h.db.db, new Date());
    const digests = (await inbox(await sessionCookieFor(h.db.db, lead))).items.filter((item) => item.kind === "overdue_digest");
    const connections = digests.map((item) => item.connection?.id);
    expect(connections).toEqual(expect.arrayContaining(["production", "other-integration"]));
    expect(new Set(connections).size).toBe(digests.length);
    for (const digest of digests) expect(digest.href.split("?")[0]).toBe(`/c/${digest.connection!.id}/cases`);
    // What each digest covers: cases of its own connection, and none of another's.
    const covered = await h.db.db
      .select({ digest: notifications.connectionId, of: cases.connectionId })
      .from(notificationCases)
      .innerJoin(notifications, eq(notifications.id, notificationCases.notificationId))
      .innerJoin(cases, eq(cases.publicId, notificationCases.casePublicId))
      .where(eq(notifications.userId, lead.id));
    expect(covered.length).toBeGreaterThanOrEqual(2);
    expect(covered.filter((row) => row.digest !== row.of)).toEqual([]);
  });

  it("a saved view is listed and deleted under its own connection only", async () => {
    const save = (connection: string) =>
      SAVE_VIEW(
        h.request(`${ORIGIN}/api/views?connection=${connection}`, {
          method: "POST",
          cookie: h.adminCookie,
          body: { scope: "verifications", name: "In review", query: "status=review" },
        }),
        noParams,
      );
    const saved = await save("production");
    expect(saved.status).toBe(201);
    const { view } = await json<{ view: { id: string } }>(saved);
    const names = async (connection: string) =>
      (
        await json<{ views: Array<{ id: string }> }>(
          await VIEWS(h.request(`${ORIGIN}/api/views?connection=${connection}`, { cookie: h.adminCookie }), noParams),
        )
      ).views.map((entry) => entry.id);
    expect(await names("production")).toContain(view.id);
    expect(await names("primary")).not.toContain(view.id);
    // The same name is free under another connection; deleting production's view from there finds none.
    expect((await save("primary")).status).toBe(201);
    const remove = (connection: string) =>
      DELETE_VIEW(h.request(`${ORIGIN}/api/views/${view.id}?connection=${connection}`, { method: "DELETE", cookie: h.adminCookie }), {
        params: Promise.resolve({ id: view.id }),
      });
    expect((await remove("primary")).status).toBe(404);
    expect((await remove("production")).status).toBe(200);
  });

  it("a document crop drawn under one connection is neither read nor overwritten under another", async () => {
    await syncAll();
    const [theirs] = await queueIds("production");
    const crop = (connection: string, method: "GET" | "PUT", body?: unknown) =>
      (method === "GET" ? READ_CROP : SET_CROP)(
        h.request(`${ORIGIN}/api/verifications/${theirs}/crop?connection=${connection}`, { method, cookie: h.adminCookie, body }),
        withId(theirs!),
      );
    const box = { x: 0.1, y: 0.2, w: 0.3, h: 0.4 };
    expect((await crop("production", "PUT", box)).status).toBe(200);
    expect((await json<{ crop: unknown }>(await crop("primary", "GET"))).crop).toBeNull();
    expect((await crop("primary", "PUT", { x: 0, y: 0, w: 0.5, h: 0.5 })).status).toBe(404);
    expect(await json(await crop("production", "GET"))).toMatchObject({ crop: { box } });
  });

  it("the service's calls are counted against the key of the connection that made them", async () => {
    const report = async (connection: string) =>
      json<UpstreamCallsReport>(
        await CALLS(h.request(`${ORIGIN}/api/upstream/calls?connection=${connection}`, { cookie: h.adminCookie }), noParams),
      );
    const listCalls = (calls: UpstreamCallsReport) =>
      calls.rows.find((row) => row.source === "GET /api/verifications" && row.kind === "core.list_verifications")?.today ?? 0;
    const before = { production: listCalls(await report("production")), primary: listCalls(await report("primary")) };
    for (let call = 0; call < 3; call += 1) {
      const listed = await LIST(
        h.request(`${ORIGIN}/api/verifications?per_page=5&connection=production`, { cookie: h.adminCookie }),
        noParams,
      );
      expect(listed.status).toBe(200);
    }
    expect(listCalls(await report("production"))).toBe(before.production + 3);
    expect(listCalls(await report("primary"))).toBe(before.primary);
  });
});
