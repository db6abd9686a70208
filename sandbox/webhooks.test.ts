import { createHmac } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startSandbox, type SandboxHandle } from "../test/sandbox";
import { core, form, login, MAIN } from "./test-support";

/*
 * Webhooks out of the sandbox, received by a real HTTP server in this test: signature, delivery id,
 * payload shapes, redelivery on the sandbox clock, the control route; and ids that survive a restart.
 */

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const SECRET = "whsec_test_secret_0123456789abcdef";
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
/** Bodies holding one of these markers (ref_ids) are answered 500, once each; everything else 200. */
const failOnce = new Set<string>();
let sandbox: SandboxHandle;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      received.push({ headers: req.headers, body });
      const marker = [...failOnce].find((ref) => body.includes(ref));
      if (marker) failOnce.delete(marker);
      res.writeHead(marker ? 500 : 200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  sandbox = await startSandbox({ SANDBOX_WEBHOOK_URL: receiverUrl, SANDBOX_WEBHOOK_SECRET: SECRET });
});

afterAll(async () => {
  await sandbox?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

async function until<T>(probe: () => T | undefined | Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("condition not met in 5 s");
}

function verify(entry: Received): { t: number; ok: boolean } {
  const header = String(entry.headers["x-legitimuz-signature"] ?? "");
  const parts = Object.fromEntries(header.split(",").map((part) => part.split("=") as [string, string]));
  const t = Number(parts.t);
  const expected = createHmac("sha256", SECRET).update(`${t}.${entry.body}`).digest("hex");
  return { t, ok: parts.v1 === expected };
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

const control = (route: string, body: unknown) =>
  fetch(`${sandbox.url}/sandbox${route}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

const forPublicId = (publicId: string) =>
  received.filter((entry) => (JSON.parse(entry.body) as { resource?: { public_id: string } }).resource?.public_id === publicId);

describe("sandbox webhooks", () => {
  it("signs verification.created: t=<unix>,v1=HMAC-SHA256 over `<t>.<raw body>`, with a delivery id", async () => {
    const publicId = await createVerification(`hook-created-${Date.now()}`);
    const [entry] = await until(() => (forPublicId(publicId).length > 0 ? forPublicId(publicId) : undefined));
    const { t, ok } = verify(entry!);
    expect(ok).toBe(true);
    expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(60);
    expect(entry!.headers["x-legitimuz-delivery"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(entry!.headers["content-type"]).toBe("application/json");
    const body = JSON.parse(entry!.body) as Record<string, unknown>;
    expect(body).toMatchObject({
      event: "verification.created",
      resource: { type: "verification", public_id: publicId },
      verification: { status: "not_opened", decided_at: null },
    });
    expect((body.verification as { ref_id: string }).ref_id).toMatch(/^hook-created-/);
  });

  it("the control route decides a review case: verification.updated then verification.approved, decided_at set", async () => {
    const publicId = await createVerification(`hook-decide-${Date.now()}`);
    expect((await control(`/verifications/${publicId}/status`, { status: "review" })).status).toBe(200);
    const answer = await control(`/verifications/${publicId}/status`, { status: "approved" });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({
      public_id: publicId,
      status: "approved",
      events: ["verification.updated", "verification.approved"],
    });

    const events = await until(() => {
      const names = forPublicId(publicId).map((entry) => (JSON.parse(entry.body) as { event: string }).event);
      return names.length >= 5 ? names : undefined;
    });
    expect(new Set(events)).toEqual(
      new Set(["verification.created", "verification.updated", "verification.review", "verification.approved"]),
    );
    const fetched = (await (await core(sandbox.url, `/public/validations-persons/${publicId}`, "sbx_core_view")).json()) as {
      status: string;
      decided_at: string | null;
      steps: { ocr: { state: string } };
    };
    expect(fetched.status).toBe("approved");
    expect(fetched.decided_at).not.toBeNull();
    expect(fetched.steps.ocr.state).toBe("approved");
  });

  it("moves a generated verification too, refuses unknown statuses and ids; expired keeps the status", async () => {
    const list = (await (await core(sandbox.url, "/public/validations-persons?status=review&per_page=1", "sbx_core_view")).json()) as {
      data: Array<{ public_id: string }>;
    };
    const publicId = list.data[0]!.public_id;
    expect((await control(`/verifications/${publicId}/status`, { status: "reproved" })).status).toBe(200);
    const after = (await (await core(sandbox.url, `/public/validations-persons/${publicId}`, "sbx_core_view")).json()) as {
      status: string;
    };
    expect(after.status).toBe("reproved");

    expect((await control(`/verifications/${publicId}/status`, { status: "done" })).status).toBe(400);
    expect((await control("/verifications/00000000-0000-4000-8000-000000000000/status", { status: "approved" })).status).toBe(404);

    const expired = await control(`/verifications/${publicId}/status`, { status: "expired" });
    expect(await expired.json()).toMatchObject({ status: "reproved", events: ["verification.expired"] });
  });

  it("redelivers a failed delivery with the same delivery id and body after the backoff, on the sandbox clock", async () => {
    const refId = `hook-retry-${Date.now()}`;
    failOnce.add(refId);
    const publicId = await createVerification(refId);
    await until(() => (forPublicId(publicId).length === 1 ? true : undefined));
    const deliveries = async () =>
      (
        (await (await fetch(`${sandbox.url}/sandbox/webhooks/deliveries`)).json()) as {
          deliveries: Array<{ id: string; public_id: string; status: string; attempts: Array<{ status: number | null }> }>;
        }
      ).deliveries.filter((d) => d.public_id === publicId);
    const first = await until(async () => {
      const [delivery] = await deliveries();
      return delivery && delivery.attempts.length === 1 ? delivery : undefined;
    });
    expect(first).toMatchObject({ status: "pending", attempts: [{ status: 500 }] });

    // Not before its time: 59 s on the sandbox clock, still one attempt.
    await sandbox.advanceClock(59);
    expect((await deliveries())[0]!.attempts).toHaveLength(1);
    await sandbox.advanceClock(1);
    const second = await until(async () => {
      const [delivery] = await deliveries();
      return delivery?.status === "delivered" ? delivery : undefined;
    });
    expect(second.attempts.map((a) => a.status)).toEqual([500, 200]);
    const both = forPublicId(publicId);
    expect(both).toHaveLength(2);
    expect(both[1]!.headers["x-legitimuz-delivery"]).toBe(both[0]!.headers["x-legitimuz-delivery"]);
    expect(both[1]!.body).toBe(both[0]!.body);
    expect(verify(both[1]!).ok).toBe(true);
    await sandbox.resetClock();
  });

  it("registers a destination at run time, in the flat shape; null turns delivery off", async () => {
    expect((await control("/webhooks", { url: receiverUrl, secret: SECRET, shape: "flat" })).status).toBe(200);
    try {
      const publicId = await createVerification(`hook-flat-${Date.now()}`);
      const entry = await until(() =>
        received.find((e) => (JSON.parse(e.body) as { verification_id?: string }).verification_id === publicId),
      );
      expect(JSON.parse(entry.body)).toMatchObject({ event: "verification.created", verification_id: publicId, status: "not_opened" });
      expect(Object.keys(JSON.parse(entry.body) as object)).toEqual(
        expect.arrayContaining(["identity_score", "fraud_score", "occurred_at", "ref_id"]),
      );
      expect((await control("/webhooks", { url: "ftp://x", secret: SECRET })).status).toBe(400);
      expect((await control("/webhooks", { url: null, secret: "" })).status).toBe(200);
      const quiet = await createVerification(`hook-off-${Date.now()}`);
      const list = (await (await fetch(`${sandbox.url}/sandbox/webhooks/deliveries`)).json()) as {
        deliveries: Array<{ public_id: string }>;
      };
      expect(list.deliveries.some((d) => d.public_id === quiet)).toBe(false);
      expect(JSON.stringify(list)).not.toContain(SECRET);
    } finally {
      await control("/webhooks", { url: receiverUrl, secret: SECRET, shape: "envelope" });
    }
  });
});

describe("sandbox webhooks, per change and without the delivery header", () => {
  it("sends one change in the other shape, and without X-Legitimuz-Delivery, when the control route asks", async () => {
    const publicId = await createVerification(`hook-per-call-${Date.now()}`);
    await until(() => (forPublicId(publicId).length > 0 ? true : undefined));
    const moved = await control(`/verifications/${publicId}/status`, { status: "review", shape: "flat", delivery_header: false });
    expect(moved.status).toBe(200);
    const flat = await until(() => {
      const found = received.filter((e) => (JSON.parse(e.body) as { verification_id?: string }).verification_id === publicId);
      return found.length >= 2 ? found : undefined;
    });
    // The documentation's shape (api/webhooks.mdx), signed as ever, with no delivery id header.
    for (const entry of flat) {
      expect(verify(entry).ok).toBe(true);
      expect(entry.headers["x-legitimuz-delivery"]).toBeUndefined();
      expect(Object.keys(JSON.parse(entry.body) as object).sort()).toEqual(
        ["event", "fraud_score", "identity_score", "occurred_at", "ref_id", "status", "verification_id"].sort(),
      );
    }
    // The sandbox's own settings are unchanged: the next change is an envelope with its delivery id again.
    await control(`/verifications/${publicId}/status`, { status: "approved" });
    const envelope = await until(() =>
      forPublicId(publicId).find((e) => (JSON.parse(e.body) as { event: string }).event === "verification.approved"),
    );
    expect(envelope.headers["x-legitimuz-delivery"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(((await (await fetch(`${sandbox.url}/sandbox/webhooks`)).json()) as { delivery_header: boolean }).delivery_header).toBe(true);
    expect((await control(`/verifications/${publicId}/status`, { status: "review", shape: "xml" })).status).toBe(400);
    expect((await control(`/verifications/${publicId}/status`, { status: "review", delivery_header: "no" })).status).toBe(400);
  });

  it("a sandbox started without the delivery header sends none (SANDBOX_WEBHOOK_DELIVERY_HEADER=off)", async () => {
    const quiet = await startSandbox({
      SANDBOX_WEBHOOK_URL: receiverUrl,
      SANDBOX_WEBHOOK_SECRET: SECRET,
      SANDBOX_WEBHOOK_DELIVERY_HEADER: "off",
      SANDBOX_VERIFICATIONS: "10",
    });
    try {
      const response = await core(quiet.url, "/public/verifications", "sbx_core_view", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ schema_version: "1.0", ref_id: `quiet-${Date.now()}`, document: { type: "cpf", number: "529.982.247-25" } }),
      });
      const publicId = ((await response.json()) as { verification: { public_id: string } }).verification.public_id;
      const [entry] = await until(() => (forPublicId(publicId).length > 0 ? forPublicId(publicId) : undefined));
      expect(entry!.headers["x-legitimuz-delivery"]).toBeUndefined();
      expect(verify(entry!).ok).toBe(true);
    } finally {
      await quiet.stop();
    }
  });

  it("a verification in review carries its review sub-state, set with the status", async () => {
    const publicId = await createVerification(`hook-review-state-${Date.now()}`);
    const read = async () =>
      (await (await core(sandbox.url, `/public/validations-persons/${publicId}`, "sbx_core_view")).json()) as {
        status: string;
        review_state?: string;
        expires_at: string;
      };
    expect((await read()).review_state).toBeUndefined();
    await control(`/verifications/${publicId}/status`, { status: "review" });
    expect(await read()).toMatchObject({ status: "review", review_state: "open" });
    const assigned = await control(`/verifications/${publicId}/status`, { status: "review", review_state: "assigned" });
    expect(await assigned.json()).toMatchObject({ review_state: "assigned" });
    expect((await read()).review_state).toBe("assigned");
    expect((await control(`/verifications/${publicId}/status`, { status: "approved", review_state: "decided" })).status).toBe(400);
    await control(`/verifications/${publicId}/status`, { status: "approved" });
    expect((await read()).review_state).toBeUndefined();
  });
});

describe("sandbox ids", () => {
  it("never hands out an integration id or a person id twice across a restart", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "sandbox-ids-"));
    const createKey = async (base: string) => {
      const bearer = await login(base);
      const response = await fetch(`${base}/partners/integrations`, {
        method: "POST",
        headers: { authorization: `Bearer ${bearer}`, origin: `https://${MAIN.domain}` },
        body: form({ domain: "shop.example.com.br", label: "shop" }),
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as { integration: { id: number } }).integration.id;
    };
    const ids: number[] = [];
    for (let run = 0; run < 2; run++) {
      const instance = await startSandbox({ SANDBOX_DATA_DIR: dataDir, SANDBOX_VERIFICATIONS: "10" });
      try {
        ids.push(await createKey(instance.url), await createKey(instance.url));
      } finally {
        await instance.stop();
      }
    }
    expect(ids[0]).toBe(4); // 1, 2 and 3 are the seeded integrations (sandbox/ids.ts).
    expect(new Set(ids).size).toBe(4);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it("names every answer with an X-Request-Id", async () => {
    const a = await core(sandbox.url, "/public/validations-persons/nope", "sbx_core_view");
    const b = await core(sandbox.url, "/public/validations-persons?per_page=1", "sbx_core_view");
    expect(a.headers.get("x-request-id")).toMatch(/^req_/);
    expect(b.headers.get("x-request-id")).not.toBe(a.headers.get("x-request-id"));
  });
});
