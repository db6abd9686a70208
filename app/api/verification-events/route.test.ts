import { beforeAll, expect, it } from "vitest";

import { GET as history } from "@/app/api/verifications/[publicId]/events/route";
import { parseDelivery } from "@/lib/webhooks/server/parse";
import { processPendingDeliveries } from "@/lib/webhooks/server/processor";
import { storeDelivery } from "@/lib/webhooks/server/store";
import { createTestStaff, sessionCookieFor } from "@/test/auth";
import { describeEachDatabase, withProcessDatabase, withTestEnvironment } from "@/test/db";
import { flatEvent, uniqueId } from "@/test/webhooks";

import { GET as feed } from "./route";

/*
 * The two reads the open pages poll: the change feed and a verification's history. Both read the
 * dashboard's own store only, and need a signed-in analyst.
 */

withTestEnvironment({}, { quiet: true });

describeEachDatabase("event reads on $name", ({ open }) => {
  const handle = withProcessDatabase(open);
  let cookie: string;
  beforeAll(async () => {
    cookie = await sessionCookieFor(handle.db, await createTestStaff(handle.db, { role: "analyst" }));
  });

  type Handler = (request: Request, context: { params: Promise<{ publicId: string }> }) => Promise<Response>;
  const get = async (url: string, withCookie = true, call: Handler = (request) => feed(request)) => {
    const response = await call(new Request(url, { headers: withCookie ? { cookie } : {} }), {
      params: Promise.resolve({ publicId: decodeURIComponent(url.split("/verifications/")[1]?.split("/")[0] ?? "") }),
    });
    return {
      status: response.status,
      cache: response.headers.get("cache-control"),
      body: (await response.json()) as Record<string, unknown>,
    };
  };
  const record = async (publicId: string, status: string) => {
    const raw = JSON.stringify(flatEvent(publicId, { status, occurred_at: new Date().toISOString() }));
    const parsed = parseDelivery(raw);
    if (parsed.kind === "malformed") throw new Error(parsed.problem);
    await storeDelivery(handle.db, { deliveryId: uniqueId("dlv"), rawBody: raw, parsed, ip: null });
    await processPendingDeliveries(handle.db);
  };

  it("refuses anonymous callers", async () => {
    expect((await get("http://localhost:3000/api/verification-events", false)).status).toBe(401);
    expect((await get("http://localhost:3000/api/verifications/ver_1/events", false, history)).status).toBe(401);
  });

  it("feed: the cursor first, then the changes after it; a bad cursor is named", async () => {
    const head = await get("http://localhost:3000/api/verification-events");
    expect(head).toMatchObject({ status: 200, cache: "no-store", body: { changes: [] } });
    const publicId = uniqueId("ver");
    await record(publicId, "review");
    const after = await get(`http://localhost:3000/api/verification-events?after=${head.body.cursor as number}`);
    expect(after.body.changes).toEqual([expect.objectContaining({ publicId, status: "review", event: "verification.updated" })]);
    const bad = await get("http://localhost:3000/api/verification-events?after=-1");
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: { fields: ["after"] } });
  });

  it("history: the verification's events oldest first; an id that could change a path is refused", async () => {
    const publicId = uniqueId("ver");
    await record(publicId, "review");
    await record(publicId, "approved");
    const response = await get(`http://localhost:3000/api/verifications/${publicId}/events`, true, history);
    expect(response.status).toBe(200);
    expect((response.body.events as Array<{ status: string }>).map((event) => event.status)).toEqual(["review", "approved"]);
    expect((await get("http://localhost:3000/api/verifications/..%2Fx/events", true, history)).status).toBe(400);
  });
});
