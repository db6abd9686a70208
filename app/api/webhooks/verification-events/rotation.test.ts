import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { afterAll, beforeAll, expect, it, vi } from "vitest";

import { setLogSink } from "@/lib/log";
import { kickWebhookProcessor } from "@/lib/webhooks/server/processor";
import { stubConfigEnv } from "@/test/config";
import { describeEachDatabase, setProcessDatabase, stubTestEnvironment, type TestDatabase } from "@/test/db";
import { startSandbox, type SandboxHandle } from "@/test/sandbox";

import { POST } from "./route";

/*
 * A rotation of WEBHOOK_SIGNING_SECRET with the sandbox as the sender, delivering over HTTP to the receiver
 * route: the dashboard first accepts the old and the new secret at once while the service switches (deliveries
 * signed with the old one, then with the new one, are both taken), and once the old key is retired, a delivery
 * signed with it is refused (401).
 */

const OLD = "old-webhook-signing-secret-0123456789";
const NEW = "new-webhook-signing-secret-0123456789";

let receiver: Server;
let receiverUrl: string;
let sandbox: SandboxHandle;
/** The receiver's answer to each delivery, by the verification it names. */
const answers = new Map<string, number[]>();

beforeAll(async () => {
  stubTestEnvironment({ WEBHOOK_SIGNING_SECRET: OLD });
  setLogSink(() => undefined);
  // The route as Next would call it, behind a plain HTTP server the sandbox delivers to.
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
      void POST(new Request(`http://localhost:3000${req.url}`, { method: "POST", headers, body })).then(async (response) => {
        const publicId = (JSON.parse(body) as { resource?: { public_id?: string } }).resource?.public_id ?? "";
        answers.set(publicId, [...(answers.get(publicId) ?? []), response.status]);
        res.writeHead(response.status, { "content-type": "application/json" }).end(await response.text());
      });
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/webhooks/verification-events`;
  sandbox = await startSandbox({ SANDBOX_WEBHOOK_URL: receiverUrl, SANDBOX_WEBHOOK_SECRET: OLD, SANDBOX_WEBHOOK_SHAPE: "envelope" });
});
afterAll(async () => {
  await sandbox?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
  setLogSink(undefined);
  vi.unstubAllEnvs();
});

/** The service now signs with `secret` (what its operator does when told of the new one). */
async function serviceSignsWith(secret: string): Promise<void> {
  const response = await fetch(`${sandbox.url}/sandbox/webhooks`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url: receiverUrl, secret, shape: "envelope" }),
  });
  expect(response.status).toBe(200);
}

/** Creates a verification at the service and waits for the receiver's first answer to its delivery. */
async function deliveryAnswer(): Promise<number> {
  const response = await fetch(`${sandbox.url}/core/public/verifications`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "sbx_core_view" },
    body: JSON.stringify({ schema_version: "1.0", ref_id: `rotation-${Date.now()}`, document: { type: "cpf", number: "529.982.247-25" } }),
  });
  expect(response.status).toBe(201);
  const publicId = ((await response.json()) as { verification: { public_id: string } }).verification.public_id;
  for (let i = 0; i < 400; i++) {
    const answer = answers.get(publicId)?.[0];
    if (answer !== undefined) return answer;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("no delivery reached the receiver in 10 s");
}

describeEachDatabase("a rotation of WEBHOOK_SIGNING_SECRET on $name", ({ open }) => {
  let handle: TestDatabase;
  beforeAll(async () => {
    handle = await open();
    setProcessDatabase(handle);
  });
  afterAll(async () => {
    await kickWebhookProcessor();
    setProcessDatabase(undefined);
    await handle?.dispose();
    stubConfigEnv({ WEBHOOK_SIGNING_SECRET: OLD });
  });

  it("accepts deliveries under both secrets while the service switches, and refuses the old one once retired", async () => {
    stubConfigEnv({ WEBHOOK_SIGNING_SECRET: OLD });
    await serviceSignsWith(OLD);
    expect(await deliveryAnswer()).toBe(202);

    // The dashboard first: the new key in front, the old one kept. The service still signs with the old one.
    stubConfigEnv({ WEBHOOK_SIGNING_SECRET: `2026-11-28T1943:${NEW},1:${OLD}` });
    expect(await deliveryAnswer()).toBe(202);
    // Then the service switches to the new secret.
    await serviceSignsWith(NEW);
    expect(await deliveryAnswer()).toBe(202);

    // The old key retired: a sender still on it is refused, the new one accepted.
    stubConfigEnv({ WEBHOOK_SIGNING_SECRET: `2026-11-28T1943:${NEW}` });
    expect(await deliveryAnswer()).toBe(202);
    await serviceSignsWith(OLD);
    expect(await deliveryAnswer()).toBe(401);
    await serviceSignsWith(NEW);
  });
});
