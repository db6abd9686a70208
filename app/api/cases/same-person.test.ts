import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";

import { GET as related } from "@/app/api/verifications/[publicId]/related/route";
import { POST as create } from "@/app/api/verifications/route";
import { auditEvents } from "@/lib/audit-trail/server/tables";
import { applyStatusOnly } from "@/lib/cases/server/store";
import type { CaseDetailResponse, CaseQueueResponse, ReverificationResponse } from "@/lib/cases/types";
import { maskCpf } from "@/lib/shared/cpf";
import { matchesMasked } from "@/lib/verifications/server/document-cpf";
import { derivedRefId, REF_ID_MAX } from "@/lib/verifications/server/reverification";
import type { RelatedVerificationsResponse } from "@/lib/verifications/types";
import { TEST_SETTINGS } from "@/test/cases";
import { randomCpf, withCheckDigits } from "@/test/cpf";
import { describeEachDatabase } from "@/test/db";
import { startPartnersHarness, type PartnersHarness } from "@/test/partners-ops";
import { startSandbox, type SandboxHandle } from "@/test/sandbox";

import { POST as assign } from "./[publicId]/assignment/route";
import { POST as reverify } from "./[publicId]/reverification/route";
import { GET as getOne } from "./[publicId]/route";
import { GET as queue } from "./route";

/*
 * The same person (GET /api/verifications/:publicId/related, the queue's flag) and re-verification from a case
 * (POST /api/cases/:publicId/reverification), against a real sandbox whose key shows documents masked: the index
 * knows a person by the CPF typed at a creation here, and a re-verification needs the analyst to type the CPF,
 * which must match before anything is created.
 */

const BASE = "http://localhost:3000/api";
const params = (publicId: string) => ({ params: Promise.resolve({ publicId }) });

async function call<T>(response: Response | Promise<Response>) {
  const answered = await response;
  return { status: answered.status, body: (await answered.json()) as T & { error?: { code: string; fields?: string[] } } };
}

/** A CPF whose masked form is the same as `cpf`'s but which is another person's (other first digits). */
function sameMaskOtherPerson(cpf: string): string {
  for (let first = 0; first < 1000; first += 1) {
    const head = String(first).padStart(3, "0");
    if (head === cpf.slice(0, 3)) continue;
    const other = withCheckDigits((head + cpf.slice(3, 9)).split("").map(Number));
    if (other.slice(9) === cpf.slice(9)) return other;
  }
  throw new Error("no CPF with the same mask");
}

// One sandbox for both databases' suites: the core client keeps the first address it was built with.
let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox?.stop();
});

it("derives the ref_id within the limit and matches a typed CPF against a masked one", () => {
  expect(derivedRefId("order-7", 2)).toBe("order-7-rv2");
  const long = derivedRefId("x".repeat(300), 12);
  expect(long).toHaveLength(REF_ID_MAX);
  expect(long.endsWith("-rv12")).toBe(true);
  expect(matchesMasked("529.982.247-25", "***.982.247-**")).toBe(true);
  expect(matchesMasked("52998224725", "***.982.248-**")).toBe(false);
  expect(matchesMasked("52998224725", "***.***.***-**")).toBe(false);
});

describeEachDatabase("the same person and re-verification on $name", (kind) => {
  let h: PartnersHarness;

  beforeAll(async () => {
    h = await startPartnersHarness({}, kind, sandbox);
  });
  afterAll(async () => {
    await h?.dispose();
  });

  const post = (path: string, body: unknown, cookie = h.analystCookie) => h.request(`${BASE}${path}`, { method: "POST", cookie, body });

  async function createFor(
    cpf: string,
    refId = `sp-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
    flow?: { flowPublicId: string },
  ): Promise<string> {
    const created = await call<{ created: { publicId: string } }>(
      create(post("/verifications", { schemaVersion: "1.0", refId, document: { type: "cpf", number: cpf }, ...flow })),
    );
    expect(created.status).toBe(201);
    return created.body.created.publicId;
  }

  async function openCase(publicId: string): Promise<void> {
    await fetch(`${h.sandbox.url}/sandbox/verifications/${encodeURIComponent(publicId)}/status`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ status: "review" }),
    });
    await applyStatusOnly(h.db.db, publicId, "review", TEST_SETTINGS);
  }

  const relatedOf = (publicId: string) =>
    call<RelatedVerificationsResponse>(
      related(h.request(`${BASE}/verifications/${publicId}/related`, { cookie: h.analystCookie }), params(publicId)),
    );

  it("says the basis is unknown when the index does not know this verification's CPF", async () => {
    const answer = await relatedOf("not-indexed-verification");
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ related: [], basis: "unknown" });
  });

  it("finds the same CPF's other verifications, with a case's status or the service's, and not another person's", async () => {
    const cpf = randomCpf();
    const first = await createFor(cpf);
    const second = await createFor(cpf);
    const stranger = await createFor(randomCpf());
    await openCase(second);
    const answer = await relatedOf(first);
    expect(answer.status).toBe(200);
    expect(answer.body.basis).toBe("cpf_hash");
    expect(answer.body.related.map((item) => item.publicId)).toEqual([second]);
    expect(answer.body.related[0]).toMatchObject({ publicId: second, status: "review", caseStatus: "open", sameDocument: true });
    // Read from the service (no case): its status as the service says.
    const back = await relatedOf(second);
    expect(back.body.related).toEqual([expect.objectContaining({ publicId: first, sameDocument: true, status: expect.any(String) })]);
    expect((await relatedOf(stranger)).body.related).toEqual([]);
    const listed = await h.db.db.select().from(auditEvents).where(eq(auditEvents.action, "verification.related"));
    expect(listed.length).toBeGreaterThanOrEqual(3);
    // The queue flags a case whose person has another open case.
    await openCase(first);
    const open = await call<CaseQueueResponse>(queue(h.request(`${BASE}/cases?queue=open&per_page=100`, { cookie: h.analystCookie })));
    const flags = new Map(open.body.items.map((item) => [item.publicId, item.otherOpenCase]));
    expect(flags.get(first)).toBe(true);
    expect(flags.get(second)).toBe(true);
  });

  it("asks for a re-verification: document checked first, ref_id derived and counted, intent before the call, timeline", async () => {
    const cpf = randomCpf();
    const refId = `rv-${Date.now()}`;
    const publicId = await createFor(cpf, refId);
    await openCase(publicId);
    const path = `/cases/${publicId}/reverification`;

    // Not the assignee, and no cases.assign: refused.
    expect((await call(reverify(post(path, { document: { type: "cpf", number: cpf } }), params(publicId)))).status).toBe(403);
    expect((await call(assign(post(`/cases/${publicId}/assignment`, { assignee: "me" }), params(publicId)))).status).toBe(200);

    await h.sandbox.clearRequests();
    const creations = async () =>
      (await h.sandbox.requests()).filter((entry) => entry.method === "POST" && entry.path.endsWith("/public/verifications"));
    // Masked by the service: the CPF must be typed…
    const missing = await call(reverify(post(path, {}), params(publicId)));
    expect(missing.status).toBe(400);
    expect(missing.body.error?.fields).toEqual(["document.number"]);
    // …and be this person's: another CPF with the very same masked form is refused by the hash.
    const other = sameMaskOtherPerson(cpf);
    expect(maskCpf(other)).toBe(maskCpf(cpf));
    const mismatch = await call(reverify(post(path, { document: { type: "cpf", number: other } }), params(publicId)));
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error?.fields).toEqual(["document.number"]);
    expect(await creations()).toEqual([]);

    const asked = await call<ReverificationResponse>(reverify(post(path, { document: { type: "cpf", number: cpf } }), params(publicId)));
    expect(asked.status).toBe(201);
    expect(asked.body.refId).toBe(`${refId}-rv1`);
    expect(asked.body.url).toMatch(/^http:\/\/.+\/widget\//);
    expect(asked.body.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    const [creation] = await creations();
    expect(creation).toBeDefined();

    const events = await h.db.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "case.reverification"), eq(auditEvents.target, publicId)))
      .orderBy(asc(auditEvents.id));
    const intent = events.find((event) => event.outcome === "intent")!;
    const success = events.find((event) => event.outcome === "success")!;
    expect(intent).toBeDefined();
    expect(success.id).toBeGreaterThan(intent.id);
    expect(intent.at.getTime()).toBeLessThanOrEqual(new Date(creation!.at).getTime());
    expect(success.details).toMatchObject({ round: 1, intent: intent.id });
    // The address is the flow's credential: never stored.
    expect(await h.allText()).not.toContain(asked.body.url!);

    const again = await call<ReverificationResponse>(reverify(post(path, { document: { type: "cpf", number: cpf } }), params(publicId)));
    expect(again.status).toBe(201);
    expect(again.body.refId).toBe(`${refId}-rv2`);
    expect(again.body.publicId).not.toBe(asked.body.publicId);

    const detail = await call<CaseDetailResponse>(
      getOne(h.request(`${BASE}/cases/${publicId}`, { cookie: h.analystCookie }), params(publicId)),
    );
    const entries = detail.body.case!.entries.filter((entry) => entry.kind === "reverification_requested");
    expect(entries.map((entry) => entry.details.publicId)).toEqual([asked.body.publicId, again.body.publicId]);
    expect(detail.body.case!.reverifications?.map((item) => item.refId)).toEqual([`${refId}-rv1`, `${refId}-rv2`]);
    expect(detail.body.case!.waitingForReverification).toBe(again.body.publicId);
    // The new verifications are the same person's.
    const same = await relatedOf(publicId);
    expect(same.body.related.map((item) => item.publicId).sort()).toEqual([asked.body.publicId, again.body.publicId].sort());
  });

  it("a re-verification opens the original's flow again, as the service reads it", async () => {
    const cpf = randomCpf();
    const publicId = await createFor(cpf, undefined, { flowPublicId: "kyc-sow" });
    await openCase(publicId);
    expect((await call(assign(post(`/cases/${publicId}/assignment`, { assignee: "me" }), params(publicId)))).status).toBe(200);
    const asked = await call<ReverificationResponse>(
      reverify(post(`/cases/${publicId}/reverification`, { document: { type: "cpf", number: cpf } }), params(publicId)),
    );
    expect(asked.status).toBe(201);
    const fetched = await fetch(`${h.sandbox.url}/core/public/validations-persons/${asked.body.publicId}`, {
      headers: { "x-api-key": "sbx_core_view" },
    });
    expect(((await fetched.json()) as { flow: string }).flow).toBe("kyc-sow");
  });
});
