import { beforeAll, expect, it } from "vitest";

import type { SavedView } from "@/lib/views/types";
import { apiRequest, createStaffHolding, sessionCookieFor, signedInStaff } from "@/test/auth";
import { describeEachDatabase, withProcessDatabase, withTestEnvironment } from "@/test/db";

import { DELETE as deleteView } from "./[id]/route";
import { GET as listViews, POST as saveView } from "./route";

/*
 * Saved views through the API: saved under a name unique per member and page (whatever its case), the
 * query checked by the page's own filter parser, each member seeing and deleting only their own, a page the
 * member may not read refused.
 */

type Json = Record<string, unknown>;
const read = async <T = Json>(response: Response) => (await response.json()) as T;
const params = (id: string) => ({ params: Promise.resolve({ id }) });

withTestEnvironment();

describeEachDatabase("saved views on $name", ({ open }) => {
  const handle = withProcessDatabase(open);
  let cookie: string;
  let otherCookie: string;
  let verificationsOnlyCookie: string;

  beforeAll(async () => {
    ({ cookie } = await signedInStaff(handle.db, { role: "analyst" }));
    ({ cookie: otherCookie } = await signedInStaff(handle.db, { role: "analyst" }));
    const reader = await createStaffHolding(handle.db, ["verifications.read"], "Reader");
    verificationsOnlyCookie = await sessionCookieFor(handle.db, reader);
  });

  const save = (body: unknown, as = cookie) => saveView(apiRequest("/api/views", { method: "POST", cookie: as, body }));
  const list = async (as = cookie) => (await read<{ views: SavedView[] }>(await listViews(apiRequest("/api/views", { cookie: as })))).views;

  it("saves a filtered queue and a filtered list, and lists them for their owner only", async () => {
    const queue = await save({ scope: "cases", name: "My overdue", query: "?queue=mine&overdue=true&page=3" });
    expect(queue.status).toBe(201);
    const saved = (await read<{ view: SavedView }>(queue)).view;
    // The page number is not part of a view.
    expect(saved).toMatchObject({ scope: "cases", name: "My overdue", query: "queue=mine&overdue=true" });
    expect((await save({ scope: "verifications", name: "In review", query: "status=review" })).status).toBe(201);
    expect((await list()).map((view) => view.name)).toEqual(["My overdue", "In review"]);
    expect(await list(otherCookie)).toEqual([]);
  });

  it("refuses a second view of the same name on the same page, whatever its case (409 naming name)", async () => {
    const again = await save({ scope: "cases", name: "MY OVERDUE", query: "queue=open" });
    expect(again.status).toBe(409);
    expect((await read<{ error: { fields: string[] } }>(again)).error.fields).toEqual(["name"]);
    // Another page, or another member: the name is free.
    expect((await save({ scope: "verifications", name: "my overdue", query: "" })).status).toBe(201);
    expect((await save({ scope: "cases", name: "My overdue", query: "queue=open" }, otherCookie)).status).toBe(201);
  });

  it("refuses a missing or unsafe name and a query the page would not read (400 naming the field)", async () => {
    for (const [body, field] of [
      [{ scope: "cases", query: "queue=open" }, "name"],
      [{ scope: "cases", name: "  ", query: "queue=open" }, "name"],
      [{ scope: "cases", name: "a\u202Eb", query: "queue=open" }, "name"],
      [{ scope: "cases", name: "Bad queue", query: "queue=nowhere" }, "query"],
      [{ scope: "cases", name: "Unknown", query: "colour=red" }, "query"],
      [{ scope: "verifications", name: "Bad status", query: "status=sleeping" }, "query"],
      [{ scope: "elsewhere", name: "Scope", query: "" }, "scope"],
    ] as const) {
      const response = await save(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await read<{ error: { fields: string[] } }>(response)).error.fields).toContain(field);
    }
  });

  it("needs the page's read permission: cases.read for the queue", async () => {
    expect((await save({ scope: "cases", name: "Queue", query: "queue=open" }, verificationsOnlyCookie)).status).toBe(403);
    expect((await save({ scope: "verifications", name: "List", query: "" }, verificationsOnlyCookie)).status).toBe(201);
    expect((await list(verificationsOnlyCookie)).map((view) => view.scope)).toEqual(["verifications"]);
  });

  it("deletes only the member's own views (404 otherwise)", async () => {
    const [view] = await list();
    const foreign = await deleteView(apiRequest(`/api/views/${view!.id}`, { method: "DELETE", cookie: otherCookie }), params(view!.id));
    expect(foreign.status).toBe(404);
    const own = await deleteView(apiRequest(`/api/views/${view!.id}`, { method: "DELETE", cookie }), params(view!.id));
    expect(own.status).toBe(200);
    expect((await list()).some((each) => each.id === view!.id)).toBe(false);
    const gone = await deleteView(apiRequest(`/api/views/${view!.id}`, { method: "DELETE", cookie }), params(view!.id));
    expect(gone.status).toBe(404);
  });
});
