import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";

import { getCase } from "@/lib/cases/server/detail";
import { listQueue } from "@/lib/cases/server/queue";
import { caseSettings } from "@/lib/cases/server/store";
import { setLogSink } from "@/lib/log";
import { kickWebhookProcessor } from "@/lib/webhooks/server/processor";
import { verificationEvents, webhookDeliveries } from "@/lib/webhooks/server/tables";
import { makeStaff } from "@/test/cases";
import { describeEachDatabase, setProcessDatabase, stubTestEnvironment, type TestDatabase } from "@/test/db";
import { startSandbox, type SandboxHandle } from "@/test/sandbox";

import { POST } from "./route";

/*
 * The sandbox as the sender, delivering over HTTP to the receiver route, in the documentation's shape and without the
 * delivery id header (Legitimuz-Tech/legitimuz-core-documentation api/webhooks.mdx names none; only the examples send
 * X-Legitimuz-Delivery): every delivery is kept and answered 2xx, a redelivery of the same event is one record, the
 * scores reach the event history; and the cases follow: a verification with a red flag opens a case, and leaves
 * the queue, closed as expired, when the service says its flow expired (api/verification-statuses.mdx: expiry is
 * `expires_at`, not a status; api/webhooks.mdx: `verification.expired`).
 */

const SECRET = "sandbox-receiver-webhook-secret-0123456789";
/** A person the sandbox knows as a PEP (sandbox/README.md): their verification opens a case before they finish. */
const PEP_CPF = "390.533.447-05";

let receiver: Server;
let sandbox: SandboxHandle;
/** The receiver's answers, in order, by the verification the body names. */
const answers = new Map<string, number[]>();

beforeAll(async () => {
  setLogSink(() => undefined);
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
      void POST(new Request(`http://localhost:3000${req.url}`, { method: "POST", headers, body })).then(async (response) => {
        const named = JSON.parse(body) as { verification_id?: string; resource?: { public_id?: string } };
        const publicId = named.verification_id ?? named.resource?.public_id ?? "";
        answers.set(publicId, [...(answers.get(publicId) ?? []), response.status]);
        res.writeHead(response.status, { "content-type": "application/json" }).end(await response.text());
      });
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/webhooks/verification-events`;
  sandbox = await startSandbox({
    SANDBOX_WEBHOOK_URL: url,
    SANDBOX_WEBHOOK_SECRET: SECRET,
    SANDBOX_WEBHOOK_SHAPE: "flat",
    SANDBOX_WEBHOOK_DELIVERY_HEADER: "off",
    SANDBOX_VERIFICATIONS: "20",
  });
  stubTestEnvironment({ WEBHOOK_SIGNING_SECRET: SECRET, SANDBOX_URL: sandbox.url, UPSTREAM_READ_RETRIES: "0" });
});
afterAll(async () => {
  await sandbox?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
  setLogSink(undefined);
  vi.unstubAllEnvs();
});

async function until<T>(probe: () => T | undefined | Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("condition not met in 10 s");
}

/** Waits until the receiver has answered `count` deliveries about this verification, then lets processing finish. */
async function answered(publicId: string, count: number): Promise<number[]> {
  const statuses = await until(() => {
    const got = answers.get(publicId) ?? [];
    return got.length >= count ? got : undefined;
  });
  await kickWebhookProcessor();
  return statuses;
}

const control = (publicId: string, body: unknown) =>
  fetch(`${sandbox.url}/sandbox/verifications/${publicId}/status`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

async function createAtTheService(refId: string, cpf: string): Promise<string> {
  const response = await fetch(`${sandbox.url}/core/public/verifications`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "sbx_core_view" },
    body: JSON.stringify({ schema_version: "1.0", ref_id: refId, document: { type: "cpf", number: cpf } }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { verification: { public_id: string } }).verification.public_id;
}

describeEachDatabase("the sandbox's deliveries, received on $name", ({ open }) => {
  let handle: TestDatabase;
  beforeAll(async () => {
    handle = await open();
    setProcessDatabase(handle);
  });
  afterAll(async () => {
    await kickWebhookProcessor();
    setProcessDatabase(undefined);
    await handle?.dispose();
  });

  it("keeps the documentation's deliveries without the delivery header, and an expired flow takes its case out of the queue", async () => {
    const me = await makeStaff(handle.db, "analyst");
    const publicId = await createAtTheService(`expiry-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`, PEP_CPF);
    // verification.created, not opened yet; a PEP: a case opens.
    expect(await answered(publicId, 1)).toEqual([202]);
    const [delivery] = await handle.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.publicId, publicId));
    expect(delivery).toMatchObject({ keySource: "event", state: "processed" });
    const [created] = await handle.db.select().from(verificationEvents).where(eq(verificationEvents.publicId, publicId));
    expect(created).toMatchObject({
      event: "verification.created",
      status: "not_opened",
      identityScore: expect.any(Number),
      fraudScore: expect.any(Number),
    });
    // The PEP flag always; the score's flag as the service scored this verification (its risk is drawn from the id
    // the service chose: 22..72 for a PEP, so 3 values in 51, about one id in seventeen, reach the threshold of 70).
    const scoreFlag = created!.fraudScore! >= caseSettings().riskThreshold ? ["high_risk"] : [];
    const opened = await getCase(handle.db, "primary", publicId);
    expect(opened).toMatchObject({ status: "open", upstreamStatus: "not_opened" });
    expect(opened!.flags.toSorted()).toEqual(["pep", ...scoreFlag].toSorted());

    // The service ends the flow: verification.expired, the status unchanged.
    expect((await control(publicId, { status: "expired" })).status).toBe(200);
    expect(await answered(publicId, 2)).toEqual([202, 202]);
    const closed = await getCase(handle.db, "primary", publicId);
    expect(closed).toMatchObject({ status: "closed", closedReason: "expired", finalStatus: null });
    const queue = await listQueue(handle.db, "primary", { queue: "open", sort: "age", page: 1, per_page: 200 }, me.actor);
    expect(queue.items.map((item) => item.publicId)).not.toContain(publicId);
  });

  it("takes both shapes from one sender, and the review sub-state read from the service lands on the case", async () => {
    const publicId = await createAtTheService(`shapes-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`, "529.982.247-25");
    await answered(publicId, 1);
    // The examples' envelope for this change, with their delivery id header.
    expect((await control(publicId, { status: "review", review_state: "assigned", shape: "envelope", delivery_header: true })).status).toBe(
      200,
    );
    expect(await answered(publicId, 3)).toEqual([202, 202, 202]);
    const deliveries = await handle.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.publicId, publicId));
    expect(deliveries.map((row) => row.keySource).sort()).toEqual(["event", "header", "header"]);
    expect(deliveries.filter((row) => row.keySource === "header").every((row) => row.tenantPublicId === "tnt_sandbox_main")).toBe(true);
    expect(await getCase(handle.db, "primary", publicId)).toMatchObject({
      status: "open",
      upstreamStatus: "review",
      upstreamReviewState: "assigned",
    });
  });
});
