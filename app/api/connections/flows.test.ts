import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { GET as READ_VERIFICATION } from "@/app/api/verifications/[publicId]/route";
import { POST as CREATE_VERIFICATION } from "@/app/api/verifications/route";
import { auditEvents } from "@/lib/audit-trail/server/tables";
import type { ConnectionResponse } from "@/lib/connections/types";
import type { CreateVerificationResponse, VerificationDetailResponse } from "@/lib/verifications/types";
import { json, withPartnersHarness } from "@/test/partners-ops";

import { PATCH } from "./[id]/route";
import { POST } from "./route";

/*
 * A connection's flows (issue 35, item 2), against a real sandbox whose flows are default, kyc-faceindex and kyc-sow
 * (sandbox/fixtures/verifications.ts): the admin names them with the connection; a verification created under it opens
 * the first when none is chosen, one of them when chosen, and another is refused by name before the service is asked.
 * A connection that names none takes any flow id, as before.
 */

const h = withPartnersHarness();
const BASE = "http://localhost:3000/api/connections";
const KEY = "lz_sbxmain1_Hq7pW2xLr9TfK4cVn8Zs";
const FLOWS = [
  { id: "kyc-faceindex", label: "Onboarding" },
  { id: "kyc-sow", label: "Source of wealth" },
];

const add = (body: Record<string, unknown>) => POST(h.request(BASE, { method: "POST", cookie: h.adminCookie, body }));
const change = (id: string, body: Record<string, unknown>) =>
  PATCH(h.request(`${BASE}/${id}`, { method: "PATCH", cookie: h.adminCookie, body }), { params: Promise.resolve({ id }) });

async function create(connection: string, body: Record<string, unknown>) {
  const url = `http://localhost:3000/api/verifications?connection=${connection}`;
  const document = { type: "cpf", number: "529.982.247-25" };
  return CREATE_VERIFICATION(h.request(url, { method: "POST", cookie: h.adminCookie, body: { schemaVersion: "1.0", document, ...body } }));
}

async function flowOf(connection: string, response: Response): Promise<string | undefined> {
  expect(response.status).toBe(201);
  const { created } = await json<CreateVerificationResponse>(response);
  const publicId = created.publicId!;
  const read = await READ_VERIFICATION(
    h.request(`http://localhost:3000/api/verifications/${publicId}?connection=${connection}`, { cookie: h.adminCookie }),
    { params: Promise.resolve({ publicId }) },
  );
  return (await json<VerificationDetailResponse>(read)).verification.flow ?? undefined;
}

describe("a connection's flows", () => {
  it("are named with the connection, in order, the first being the default, and changed on the trail", async () => {
    const added = await add({ name: "Flows app", environment: "sandbox", coreApiKey: KEY, flows: FLOWS });
    expect(added.status).toBe(201);
    const { connection } = await json<ConnectionResponse>(added);
    expect(connection).toMatchObject({ flows: FLOWS, defaultFlow: "kyc-faceindex" });

    const reordered = await change(connection.id, { flows: [FLOWS[1], FLOWS[0]] });
    expect((await json<ConnectionResponse>(reordered)).connection.defaultFlow).toBe("kyc-sow");
    const events = await h.db.db
      .select({ details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "connection.flows"), eq(auditEvents.target, connection.id)));
    expect(events.map((event) => event.details)).toEqual([expect.objectContaining({ flows: "kyc-sow kyc-faceindex" })]);
  });

  it("refuses a flow that is not an id, a flow named twice and an empty label, each by its field, before the service is asked", async () => {
    await h.sandbox.clearRequests();
    const cases: [unknown, string][] = [
      [[FLOWS[0], { id: "kyc sow/..", label: "x" }], "flows.1.id"],
      [[FLOWS[0], FLOWS[0]], "flows"],
      [[{ id: "kyc-sow", label: " " }], "flows.0.label"],
    ];
    for (const [flows, field] of cases) {
      const refused = await add({ name: `Refused ${field}`, environment: "sandbox", coreApiKey: KEY, flows });
      expect(refused.status).toBe(400);
      expect((await json<{ error: { fields: string[] } }>(refused)).error.fields).toEqual([field]);
    }
    expect(await h.sandbox.requests()).toEqual([]);
  });

  it("open the first when none is chosen, the one chosen among them, and refuse another by name before any call", async () => {
    const { connection } = await json<ConnectionResponse>(
      await add({ name: "Flows create", environment: "sandbox", coreApiKey: KEY, flows: FLOWS }),
    );
    expect(await flowOf(connection.id, await create(connection.id, { refId: "flows-default" }))).toBe("kyc-faceindex");
    expect(await flowOf(connection.id, await create(connection.id, { refId: "flows-chosen", flowPublicId: "kyc-sow" }))).toBe("kyc-sow");

    await h.sandbox.clearRequests();
    const refused = await create(connection.id, { refId: "flows-other", flowPublicId: "default" });
    expect(refused.status).toBe(400);
    const body = await json<{ error: { fields: string[]; message: string } }>(refused);
    expect(body.error.fields).toEqual(["flowPublicId"]);
    expect(body.error.message).toContain("kyc-faceindex, kyc-sow");
    expect(await h.sandbox.requests()).toEqual([]);
  });

  it("leave a connection that names none free: any flow id, none sent when none is chosen", async () => {
    const { connection } = await json<ConnectionResponse>(await add({ name: "No flows", environment: "sandbox", coreApiKey: KEY }));
    expect(connection).toMatchObject({ flows: [], defaultFlow: null });
    expect(await flowOf(connection.id, await create(connection.id, { refId: "free-flow", flowPublicId: "default" }))).toBe("default");
  });
});
