import { and, eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";

import { auditEvents } from "@/lib/audit-trail/server/tables";
import { apiRequest, createTestStaff, sessionCookieFor } from "@/test/auth";
import { describeEachDatabase, withProcessDatabase, withTestEnvironment } from "@/test/db";

import { DELETE, GET, PUT } from "./route";

const params = (publicId: string) => ({ params: Promise.resolve({ publicId }) });
const url = (publicId: string) => `/api/verifications/${publicId}/crop`;

describeEachDatabase("document portrait crop on $name", ({ open }) => {
  withTestEnvironment();
  const handle = withProcessDatabase(open);
  let cookie: string;

  beforeAll(async () => {
    cookie = await sessionCookieFor(handle.db, await createTestStaff(handle.db, { role: "analyst" }));
  });

  it("keeps one crop per verification, replaced and cleared, each change on the trail", async () => {
    const id = "crop-case-1";
    expect(await (await GET(apiRequest(url(id), { cookie }), params(id))).json()).toEqual({ crop: null });
    const first = await PUT(apiRequest(url(id), { method: "PUT", cookie, body: { x: 0.1, y: 0.2, w: 0.3, h: 0.4 } }), params(id));
    expect(first.status).toBe(200);
    await PUT(apiRequest(url(id), { method: "PUT", cookie, body: { x: 0.5, y: 0.1, w: 0.25, h: 0.5 } }), params(id));
    const read = (await (await GET(apiRequest(url(id), { cookie }), params(id))).json()) as { crop: { box: unknown } };
    expect(read.crop.box).toEqual({ x: 0.5, y: 0.1, w: 0.25, h: 0.5 });
    // Another verification's crop is its own.
    expect(await (await GET(apiRequest(url("crop-case-2"), { cookie }), params("crop-case-2"))).json()).toEqual({ crop: null });

    expect(await (await DELETE(apiRequest(url(id), { method: "DELETE", cookie }), params(id))).json()).toEqual({ cleared: true });
    expect(await (await GET(apiRequest(url(id), { cookie }), params(id))).json()).toEqual({ crop: null });
    const actions = await handle.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(and(eq(auditEvents.target, id)));
    expect(actions.map((row) => row.action)).toEqual(["verification.crop_set", "verification.crop_set", "verification.crop_clear"]);
  });

  it("refuses a box outside the picture, naming the field, and changes nothing", async () => {
    const id = "crop-case-3";
    const response = await PUT(apiRequest(url(id), { method: "PUT", cookie, body: { x: 0.9, y: 0, w: 0.3, h: 0.3 } }), params(id));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { fields: string[] } }).error.fields).toEqual(["w"]);
    expect(await (await GET(apiRequest(url(id), { cookie }), params(id))).json()).toEqual({ crop: null });
  });
});
