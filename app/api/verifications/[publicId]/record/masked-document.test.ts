import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";

import { POST as create } from "@/app/api/verifications/route";
import type { RecordLookupResponse } from "@/lib/lookups/types";
import { formatCpf } from "@/lib/shared/cpf";
import { randomCpf } from "@/test/cpf";
import { json, startPartnersHarness, type PartnersHarness } from "@/test/partners-ops";

import { POST } from "./route";

/*
 * The record beside a document the service shows masked (the sandbox's default key): the server cannot read the
 * CPF, so the member types it in the body, and it must be this verification's (its hash in the index, learned at
 * the creation here) before any lookup is made or counted.
 */

const BASE = "http://localhost:3000/api";
let h: PartnersHarness;
let publicId: string;
const cpf = randomCpf();
type ErrorBody = { error: { code: string; fields?: string[] } };

const record = (body: unknown) =>
  POST(h.request(`${BASE}/verifications/${publicId}/record`, { method: "POST", cookie: h.analystCookie, body }), {
    params: Promise.resolve({ publicId }),
  });
/** The partners API's lookups (its sign-in aside). */
const partnersCalls = async () =>
  (await h.sandbox.requests()).filter((request) => request.path.startsWith("/partners/") && !request.path.startsWith("/partners/auth/"));

// Two hooks, each with its own time: the sandbox and database first, then the verification made here.
beforeAll(async () => {
  h = await startPartnersHarness();
}, 180_000);
beforeAll(async () => {
  const body = { schemaVersion: "1", refId: `record-masked-${Date.now()}`, document: { type: "cpf", number: cpf } };
  const created = await create(h.request(`${BASE}/verifications`, { method: "POST", cookie: h.adminCookie, body }));
  expect(created.status).toBe(201);
  publicId = (await json<{ created: { publicId: string } }>(created)).created.publicId;
});
afterAll(async () => {
  await h?.dispose();
});
beforeEach(async () => {
  await h.sandbox.clearRequests();
});

it("asks for the CPF by name, and refuses another person's, before any lookup", async () => {
  const missing = await record({ purpose: "KYC review", sources: ["receita"] });
  expect(missing.status).toBe(400);
  expect((await json<ErrorBody>(missing)).error.fields).toEqual(["cpf"]);
  const other = await record({ purpose: "KYC review", sources: ["receita"], cpf: randomCpf() });
  expect(other.status).toBe(400);
  expect((await json<ErrorBody>(other)).error.fields).toEqual(["cpf"]);
  expect(await partnersCalls()).toEqual([]);
});

it("looks up the typed CPF once it is this verification's", async () => {
  const response = await record({ purpose: "KYC review", sources: ["history"], cpf: formatCpf(cpf) });
  expect(response.status).toBe(200);
  const body = await json<RecordLookupResponse>(response);
  expect(body.results[0]).toMatchObject({ source: "history", record: { cpf } });
  expect((await partnersCalls()).map((request) => request.path)).toEqual(["/partners/kyc/cpf-history"]);
});
