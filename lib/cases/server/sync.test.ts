import http from "node:http";
import type { AddressInfo } from "node:net";

import { afterAll, beforeAll, expect, it } from "vitest";

import { cases } from "@/lib/cases/server/tables";
import type { Database } from "@/lib/db/client";
import { CoreClient } from "@/lib/upstream/core";
import { parseDelivery } from "@/lib/webhooks/server/parse";
import { processPendingDeliveries } from "@/lib/webhooks/server/processor";
import { storeDelivery } from "@/lib/webhooks/server/store";
import { cpfFromBase } from "@/test/audit-trail";
import { TEST_SETTINGS } from "@/test/cases";
import { restoreConfigEnv } from "@/test/config";
import { describeEachDatabase, stubTestEnvironment, type TestDatabase } from "@/test/db";
import { startSandbox, type SandboxHandle } from "@/test/sandbox";

import { fromBound, syncReviewCases, type SyncOptions } from "./sync";

/*
 * The incremental sync against the sandbox: after a day of the service's events (statuses moved, verifications
 * created, the sandbox clock a day ahead), a database kept by incremental runs (events since its cursor, new
 * verifications since its last run) holds the same open and closed cases as one kept by full passes.
 */

const WEBHOOK_SECRET = "sync-test-webhook-secret-0123456789";
const SANDBOX_CORE_KEY = "sbx_core_view_media";

let sandbox: SandboxHandle;
let client: CoreClient;
let receiver: http.Server;
const received: Array<{ deliveryId: string; body: string }> = [];
let runs = 0;

beforeAll(async () => {
  stubTestEnvironment();
  sandbox = await startSandbox({ SANDBOX_VERIFICATIONS: "800" });
  client = new CoreClient({ baseUrl: `${sandbox.url}/core`, apiKey: SANDBOX_CORE_KEY });
  // The dashboard's receiver stands here: the deliveries are kept as sent, and stored by the test into each database.
  receiver = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ deliveryId: String(request.headers["x-legitimuz-delivery"]), body: Buffer.concat(chunks).toString() });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const { port } = receiver.address() as AddressInfo;
  await control("POST", "/webhooks", { url: `http://127.0.0.1:${port}/hook`, secret: WEBHOOK_SECRET });
}, 60_000);

afterAll(async () => {
  await sandbox?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
  restoreConfigEnv();
});

async function control(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${sandbox.url}/sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`sandbox ${method} ${path}: ${response.status}`);
  return response.json();
}

const move = (publicId: string, status: string) => control("POST", `/verifications/${publicId}/status`, { status });

/** Waits until the sandbox has delivered every event it queued, then hands back the new deliveries. */
async function drainDeliveries(): Promise<Array<{ deliveryId: string; body: string }>> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const { deliveries } = (await control("GET", "/webhooks/deliveries")) as { deliveries: Array<{ status: string }> };
    if (deliveries.every((delivery) => delivery.status !== "pending")) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return received.splice(0);
}

/** Stores and processes deliveries as the receiver and the processor would (no case listener registered here). */
async function record(db: Database, deliveries: Array<{ deliveryId: string; body: string }>): Promise<void> {
  for (const delivery of deliveries) {
    const parsed = parseDelivery(delivery.body);
    if (parsed.kind === "malformed") throw new Error("the sandbox sent a malformed delivery");
    await storeDelivery(db, { deliveryId: delivery.deliveryId, rawBody: delivery.body, parsed, ip: null });
  }
  await processPendingDeliveries(db, { max: 1000 });
}

async function snapshot(db: Database): Promise<Array<[string, string]>> {
  const rows = await db.select({ publicId: cases.publicId, status: cases.status }).from(cases);
  return rows.map((row): [string, string] => [row.publicId, row.status]).sort((a, b) => a[0].localeCompare(b[0]));
}

async function ids(status: string, count: number): Promise<string[]> {
  const list = await client.listVerifications({ status, per_page: 100 });
  return list.items.slice(0, count).map((item) => item.publicId);
}

describeEachDatabase("incremental case sync on $name", ({ open }) => {
  let full: TestDatabase;
  let incremental: TestDatabase;
  beforeAll(async () => {
    [full, incremental] = await Promise.all([open(), open()]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([full?.dispose(), incremental?.dispose()]);
  });

  const options = (mode: SyncOptions["mode"]): SyncOptions => ({
    client,
    settings: TEST_SETTINGS,
    perPage: 100,
    mode,
    fullEveryMs: 24 * 3_600_000,
    dateFilter: { format: "date", timeZone: "America/Sao_Paulo" },
  });

  it("after a day of events opens and closes the same cases as a full pass, and costs one call when nothing is new", async () => {
    // Both start from a full pass (the incremental database's first run has no cursor: full too).
    const first = await syncReviewCases(full.db, options("full"));
    const firstAuto = await syncReviewCases(incremental.db, options("auto"));
    expect(firstAuto.mode).toBe("full");
    expect(await snapshot(incremental.db)).toEqual(await snapshot(full.db));
    expect(first.opened).toBeGreaterThan(20);

    // Day one: reviews decided, older verifications entering review, new ones created and sent to review.
    const review = await ids("review", 12);
    const started = await ids("started", 3);
    for (const publicId of review.slice(0, 5)) await move(publicId, "approved");
    for (const publicId of review.slice(5, 8)) await move(publicId, "reproved");
    await move(review[8]!, "started");
    for (const publicId of started) await move(publicId, "review");
    const created: string[] = [];
    // New people each database's run: the sandbox is shared by the runs, and a repeated creation returns the old one.
    runs += 1;
    for (const base of [123_456_000 + runs * 10, 123_456_001 + runs * 10]) {
      const verification = await client.createVerification({
        schemaVersion: "1.0",
        refId: `sync-test-${process.pid}-${base}`,
        document: { type: "cpf", number: cpfFromBase(base) },
      });
      if (!verification.publicId) throw new Error("the sandbox's creation answer names no public id");
      created.push(verification.publicId);
      await move(verification.publicId, "review");
    }
    await sandbox.advanceClock(24 * 3600);
    await record(incremental.db, await drainDeliveries());

    const afterFull = await syncReviewCases(full.db, options("full"));
    const afterIncremental = await syncReviewCases(incremental.db, options("auto"));
    expect(afterIncremental.mode).toBe("incremental");
    expect(await snapshot(incremental.db)).toEqual(await snapshot(full.db));
    const states = new Map(await snapshot(incremental.db));
    expect([...review.slice(0, 8)].map((id) => states.get(id))).toEqual(Array(8).fill("closed"));
    expect([...started, ...created].map((id) => states.get(id))).toEqual(Array(5).fill("open"));
    expect(afterIncremental.closed).toBe(afterFull.closed);
    expect(afterIncremental.upstreamCalls).toBeLessThan(afterFull.upstreamCalls);

    // Day two: a decided verification back in review (only a fresh read reopens it) and another one decided.
    await move(review[0]!, "review");
    await move(review[9]!, "approved");
    await record(incremental.db, await drainDeliveries());
    await syncReviewCases(full.db, options("full"));
    const reopened = await syncReviewCases(incremental.db, options("auto"));
    expect(reopened.mode).toBe("incremental");
    expect(await snapshot(incremental.db)).toEqual(await snapshot(full.db));
    expect(new Map(await snapshot(incremental.db)).get(review[0]!)).toBe("open");

    // Nothing new: the list of what was created since the last run, one page.
    const quiet = await syncReviewCases(incremental.db, options("auto"));
    expect(quiet).toMatchObject({ mode: "incremental", opened: 0, closed: 0, events: 0, upstreamCalls: 1 });
  }, 120_000);
});

it("the list's lower bound is the last run's day in the time zone, or the instant itself", () => {
  // 01:30 UTC on the 2nd is still the 1st in São Paulo.
  const since = new Date("2026-03-02T01:30:00Z");
  expect(fromBound(since, { format: "date", timeZone: "America/Sao_Paulo" })).toBe("2026-03-01");
  expect(fromBound(since, { format: "datetime", timeZone: "America/Sao_Paulo" })).toBe("2026-03-02T01:30:00.000Z");
});
