import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { startSandbox, type SandboxHandle } from "../test/sandbox";
import { core } from "./test-support";
import { FAILING_AFTER } from "./webhook-destination";

/*
 * The webhook destination's state (active, paused, failing) and the test delivery, received by a real HTTP server in
 * this test. Time moves on the sandbox clock only.
 */

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

interface Delivery {
  id: string;
  event: string;
  public_id: string;
  status: string;
  next_attempt_at: string | null;
  attempts: Array<{ at: string; status: number | null }>;
}

interface TestOutcome {
  id: string;
  event: string;
  status: string;
  attempt: { status: number | null };
  destination_state: string;
}

const SECRET = "whsec_destination_test_0123456789";
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
/** What the receiver answers, changed by a test. */
let answer = 200;
let sandbox: SandboxHandle;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  sandbox = await startSandbox({ SANDBOX_WEBHOOK_URL: receiverUrl, SANDBOX_WEBHOOK_SECRET: SECRET, SANDBOX_VERIFICATIONS: "10" });
});

afterAll(async () => {
  await sandbox?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

beforeEach(async () => {
  answer = 200;
  await post("/webhooks/resume");
  await sandbox.resetClock();
});

const post = (route: string, body?: unknown) =>
  fetch(`${sandbox.url}/sandbox${route}`, {
    method: "POST",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

const destination = async () => (await (await fetch(`${sandbox.url}/sandbox/webhooks`)).json()) as { url: string | null; state: string };

const deliveries = async () =>
  ((await (await fetch(`${sandbox.url}/sandbox/webhooks/deliveries`)).json()) as { deliveries: Delivery[] }).deliveries;

const clockNow = async () => Date.parse(((await (await fetch(`${sandbox.url}/sandbox/clock`)).json()) as { now: string }).now);

async function testDelivery(): Promise<TestOutcome> {
  const response = await post("/webhooks/test");
  expect(response.status).toBe(200);
  return (await response.json()) as TestOutcome;
}

async function until<T>(probe: () => T | undefined | Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("condition not met in 5 s");
}

/** `t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` with the destination's secret (webhooks.ts `signature`). */
function signedWithSecret(entry: Received): boolean {
  const header = String(entry.headers["x-legitimuz-signature"] ?? "");
  const parts = Object.fromEntries(header.split(",").map((part) => part.split("=") as [string, string]));
  return parts.v1 === createHmac("sha256", SECRET).update(`${parts.t}.${entry.body}`).digest("hex");
}

async function createVerification(refId: string): Promise<string> {
  const response = await core(sandbox.url, "/public/verifications", "sbx_core_view", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ schema_version: "1.0", ref_id: refId, document: { type: "cpf", number: "529.982.247-25" } }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { verification: { public_id: string } }).verification.public_id;
}

describe("webhook destination: paused and resumed", () => {
  it("keeps a paused destination's changes as pending deliveries with no attempt due, and sends them on resume", async () => {
    expect((await destination()).state).toBe("active");
    expect(await (await post("/webhooks/pause")).json()).toMatchObject({ state: "paused" });
    expect((await destination()).state).toBe("paused");

    const publicId = await createVerification(`paused-${Date.now()}`);
    await sandbox.advanceClock(3600);
    const pausedUntil = await clockNow();
    const [held] = (await deliveries()).filter((delivery) => delivery.public_id === publicId);
    expect(held).toMatchObject({ event: "verification.created", status: "pending", next_attempt_at: null, attempts: [] });
    expect(received.some((entry) => entry.body.includes(publicId))).toBe(false);

    expect(await (await post("/webhooks/resume")).json()).toMatchObject({ state: "active" });
    const sent = await until(async () => (await deliveries()).find((d) => d.id === held!.id && d.status === "delivered"));
    // One attempt, made after the paused hour on the sandbox clock: none was made while paused.
    expect(sent.attempts).toHaveLength(1);
    expect(Date.parse(sent.attempts[0]!.at)).toBeGreaterThanOrEqual(pausedUntil);
    expect(received.filter((entry) => entry.headers["x-legitimuz-delivery"] === held!.id)).toHaveLength(1);
  });

  it("holds a scheduled redelivery too: it goes on resume, not at its time", async () => {
    answer = 500;
    const failed = await testDelivery();
    answer = 200;
    await post("/webhooks/pause");
    await sandbox.advanceClock(120);
    const pausedUntil = await clockNow();
    const held = (await deliveries()).find((delivery) => delivery.id === failed.id);
    expect(held).toMatchObject({ status: "pending", next_attempt_at: null, attempts: [{ status: 500 }] });

    await post("/webhooks/resume");
    const sent = await until(async () => (await deliveries()).find((d) => d.id === failed.id && d.status === "delivered"));
    expect(sent.attempts.map((attempt) => attempt.status)).toEqual([500, 200]);
    expect(Date.parse(sent.attempts[1]!.at)).toBeGreaterThanOrEqual(pausedUntil);
  });
});

describe("webhook destination: test delivery", () => {
  it("sends a signed test delivery at once, in the configured shape, and lists it with its attempt", async () => {
    const outcome = await testDelivery();
    expect(outcome).toMatchObject({ event: "webhook.test", status: "delivered", attempt: { status: 200 }, destination_state: "active" });
    // The route answers after the attempt: the receiver already has it.
    const entry = received.find((e) => e.headers["x-legitimuz-delivery"] === outcome.id);
    expect(entry).toBeDefined();
    expect(signedWithSecret(entry!)).toBe(true);
    expect(JSON.parse(entry!.body)).toMatchObject({
      event: "webhook.test",
      resource: { type: "verification", public_id: "00000000-0000-0000-0000-000000000000" },
      verification: { status: "not_opened", ref_id: null, decided_at: null },
    });
    const listed = (await deliveries()).find((delivery) => delivery.id === outcome.id);
    expect(listed).toMatchObject({ event: "webhook.test", status: "delivered", next_attempt_at: null, attempts: [{ status: 200 }] });

    expect((await post("/webhooks", { url: receiverUrl, secret: SECRET, shape: "flat" })).status).toBe(200);
    try {
      const flat = await testDelivery();
      const flatEntry = received.find((e) => e.headers["x-legitimuz-delivery"] === flat.id);
      expect(signedWithSecret(flatEntry!)).toBe(true);
      expect(Object.keys(JSON.parse(flatEntry!.body) as object).sort()).toEqual(
        ["event", "fraud_score", "identity_score", "occurred_at", "ref_id", "status", "verification_id"].sort(),
      );
      expect(JSON.parse(flatEntry!.body)).toMatchObject({ event: "webhook.test" });
    } finally {
      await post("/webhooks", { url: receiverUrl, secret: SECRET, shape: "envelope" });
    }
  });

  it("refuses a test delivery while paused or without a destination (409), sending nothing", async () => {
    const before = (await deliveries()).length;
    await post("/webhooks/pause");
    expect((await post("/webhooks/test")).status).toBe(409);
    await post("/webhooks/resume");
    expect((await post("/webhooks", { url: null, secret: "" })).status).toBe(200);
    try {
      expect((await post("/webhooks/test")).status).toBe(409);
    } finally {
      await post("/webhooks", { url: receiverUrl, secret: SECRET });
    }
    expect(await deliveries()).toHaveLength(before);
  });
});

describe("webhook destination: failing", () => {
  it(`reads failing after ${FAILING_AFTER} failed attempts in a row, and active again after a 2xx`, async () => {
    answer = 500;
    const ids: string[] = [];
    for (let i = 1; i <= FAILING_AFTER; i++) {
      const outcome = await testDelivery();
      expect(outcome).toMatchObject({ status: "pending", attempt: { status: 500 } });
      expect(outcome.destination_state).toBe(i < FAILING_AFTER ? "active" : "failing");
      ids.push(outcome.id);
    }
    expect((await destination()).state).toBe("failing");

    // The receiver mends; the redeliveries, due 60 s later on the sandbox clock, come back 200.
    answer = 200;
    await sandbox.advanceClock(60);
    const settled = await until(async () => {
      const ours = (await deliveries()).filter((delivery) => ids.includes(delivery.id));
      return ours.every((delivery) => delivery.status === "delivered") ? ours : undefined;
    });
    expect(settled.map((delivery) => delivery.attempts.map((attempt) => attempt.status))).toEqual(ids.map(() => [500, 200]));
    expect((await destination()).state).toBe("active");
  });
});
