import { createHash } from "node:crypto";

import { and, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";

import { listAuditEvents } from "@/lib/audit-trail/server/query";
import { auditEvents } from "@/lib/audit-trail/server/tables";
import { setLogSink } from "@/lib/log";
import { onVerificationChange, type VerificationChange } from "@/lib/webhooks/server/changes";
import { kickWebhookProcessor } from "@/lib/webhooks/server/processor";
import { verificationEvents, webhookDeliveries } from "@/lib/webhooks/server/tables";
import { describeEachDatabase, stubTestEnvironment, withProcessDatabase } from "@/test/db";
import { envelopeEvent, flatEvent, TEST_WEBHOOK_SECRET, uniqueId, webhookRequest } from "@/test/webhooks";

import { POST } from "./route";

/*
 * The receiver, called as Next calls it, on PGlite and PostgreSQL: each case with its status and what
 * was stored (deliveries, verification events, audit records), and what the listeners saw.
 */

const logLines: string[] = [];
const seen: VerificationChange[] = [];
const listener = async (_db: unknown, change: VerificationChange) => {
  seen.push(change);
};

let unregister: () => void;

beforeAll(() => {
  stubTestEnvironment({ WEBHOOK_SIGNING_SECRET: TEST_WEBHOOK_SECRET });
  setLogSink((_level, line) => logLines.push(line));
  unregister = onVerificationChange(listener);
});
afterAll(() => {
  unregister();
  setLogSink(undefined);
  vi.unstubAllEnvs();
});

async function send(request: Request) {
  const response = await POST(request);
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as Record<string, unknown> & { error?: { code: string; fields?: string[] } } };
}

describeEachDatabase("POST /api/webhooks/verification-events on $name", ({ open }) => {
  const handle = withProcessDatabase(open);

  afterEach(async () => {
    // Let the background processing the route kicked finish before the next case or the teardown.
    await kickWebhookProcessor();
  });

  const deliveriesOf = (deliveryId: string) =>
    handle.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.deliveryId, deliveryId));
  const eventsOf = (publicId: string) => handle.db.select().from(verificationEvents).where(eq(verificationEvents.publicId, publicId));
  const auditCount = async () => (await handle.db.select({ n: sql<number>`count(*)::int` }).from(auditEvents))[0]!.n;
  const auditFor = (action: string, target: string) =>
    handle.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, action), eq(auditEvents.target, target)));

  it("valid (flat shape): 202, stored before the answer, processed out of the request into one event", async () => {
    const publicId = uniqueId("ver");
    const deliveryId = uniqueId("dlv");
    const response = await send(webhookRequest(flatEvent(publicId, { status: "approved" }), { deliveryId }));
    expect(response).toEqual({ status: 202, body: { received: true, duplicate: false, ignored: false, unparseable: false } });

    const [stored] = await deliveriesOf(deliveryId);
    expect(stored).toMatchObject({ event: "verification.updated", publicId });
    expect(["pending", "processed"]).toContain(stored!.state);
    const [receipt] = await auditFor("webhook.receive", publicId);
    expect(receipt).toMatchObject({ actorId: null, outcome: "success" });
    expect(receipt!.details).toMatchObject({ event: "verification.updated", status: "approved", delivery: deliveryId, handling: "queued" });

    await kickWebhookProcessor();
    expect((await deliveriesOf(deliveryId))[0]).toMatchObject({ state: "processed", attempts: 1 });
    const events = await eventsOf(publicId);
    expect(events).toHaveLength(1);
    // Every field the documentation's payload names is read: the scores too (shown on the event history).
    expect(events[0]).toMatchObject({
      event: "verification.updated",
      status: "approved",
      refId: "pedido-0001",
      deliveryId,
      identityScore: 812,
      fraudScore: 120,
      decidedAt: null,
      tenantPublicId: null,
    });
    expect(await auditFor("webhook.process", publicId)).toHaveLength(1);
    expect(seen.filter((change) => change.publicId === publicId)).toEqual([
      expect.objectContaining({ publicId, event: "verification.updated", status: "approved", refId: "pedido-0001", deliveryId }),
    ]);
  });

  it("valid (envelope shape): the status and decision time come from `verification`, the event key from `id`", async () => {
    const publicId = uniqueId("ver");
    const body = envelopeEvent(publicId);
    expect((await send(webhookRequest(body))).status).toBe(202);
    await kickWebhookProcessor();
    const events = await eventsOf(publicId);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      eventKey: `id:${body.id}`,
      event: "verification.decided",
      status: "reproved",
      refId: "pedido-0002",
      decidedAt: new Date(body.verification.decided_at),
      tenantPublicId: "tenant_demo",
    });
    // The account is kept on the delivery, for routing it to its connection, and handed to the listeners.
    const [delivery] = await handle.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.publicId, publicId));
    expect(delivery).toMatchObject({ tenantPublicId: "tenant_demo", keySource: "header" });
    expect(seen.find((change) => change.publicId === publicId)).toMatchObject({ tenantPublicId: "tenant_demo" });
  });

  it("bad signature: 401, nothing stored, nothing on the trail", async () => {
    const before = await auditCount();
    const deliveryId = uniqueId("dlv");
    const wrongSecret = await send(webhookRequest(flatEvent(uniqueId("ver")), { deliveryId, secret: "another-secret-0123456789abcdef" }));
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.body.error?.code).toBe("unauthenticated");
    // The body changed after signing (one byte): refused too.
    const signed = webhookRequest(flatEvent(uniqueId("ver")), { deliveryId });
    const tampered = new Request(signed.url, {
      method: "POST",
      headers: signed.headers,
      body: (await signed.text()).replace('"approved"', '"reproved"'),
    });
    expect((await send(tampered)).status).toBe(401);
    expect((await send(webhookRequest(flatEvent(uniqueId("ver")), { deliveryId, signature: "t=1,v1=zz" }))).status).toBe(401);
    expect(await deliveriesOf(deliveryId)).toEqual([]);
    expect(await auditCount()).toBe(before);
  });

  it("stale signature (outside the 300 s window, either way): 401, nothing stored", async () => {
    const deliveryId = uniqueId("dlv");
    const now = Math.floor(Date.now() / 1000);
    // A minute outside the window, not one second: the route reads the real clock, and on a busy machine a second
    // passed between `now` and the second request, which brought now + 301 inside (a clean-clone run got 202). The
    // boundary itself, to the second, is lib/webhooks/server/signature.test.ts's, with a fixed clock.
    expect((await send(webhookRequest(flatEvent(uniqueId("ver")), { deliveryId, timestamp: now - 360 }))).status).toBe(401);
    expect((await send(webhookRequest(flatEvent(uniqueId("ver")), { deliveryId, timestamp: now + 360 }))).status).toBe(401);
    expect(await deliveriesOf(deliveryId)).toEqual([]);
    // Inside the window: accepted.
    expect((await send(webhookRequest(flatEvent(uniqueId("ver")), { deliveryId, timestamp: now - 200 }))).status).toBe(202);
  });

  it("missing signature header: 401, nothing stored, nothing on the trail", async () => {
    const before = await auditCount();
    const deliveryId = uniqueId("dlv");
    expect((await send(webhookRequest(flatEvent(uniqueId("ver")), { deliveryId, signature: null }))).status).toBe(401);
    // Without the delivery header either: the signature still comes first.
    expect((await send(webhookRequest(flatEvent(uniqueId("ver")), { deliveryId: null, signature: null }))).status).toBe(401);
    expect((await send(webhookRequest("{not json", { deliveryId: null, secret: "another-secret-0123456789abcdef" }))).status).toBe(401);
    expect(await deliveriesOf(deliveryId)).toEqual([]);
    expect(await auditCount()).toBe(before);
  });

  it("signed, without the delivery header: kept (202), keyed by the event's identity, the same event again is one record", async () => {
    const publicId = uniqueId("ver");
    const body = flatEvent(publicId, { status: "review", event: "verification.review" });
    expect(await send(webhookRequest(body, { deliveryId: null }))).toEqual({
      status: 202,
      body: { received: true, duplicate: false, ignored: false, unparseable: false },
    });
    // The same event again, re-serialised and freshly signed (a redelivery): the same key, answered as a duplicate.
    const again = await send(webhookRequest(JSON.stringify(body, null, 2), { deliveryId: null }));
    expect(again).toEqual({ status: 200, body: { received: true, duplicate: true, ignored: false, unparseable: false } });
    await kickWebhookProcessor();
    const rows = await handle.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.publicId, publicId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ keySource: "event", state: "processed", deliveryId: expect.stringMatching(/^event:[0-9a-f]{64}$/) });
    expect(await eventsOf(publicId)).toHaveLength(1);
    // Shown where admins read deliveries: the receipt on the audit trail says how it was keyed.
    const trail = await listAuditEvents(handle.db, { action: "webhook.receive", target: publicId }, { limit: 10 });
    expect(trail.events).toHaveLength(1);
    expect(trail.events[0]!.details).toMatchObject({ handling: "queued", deliveryKey: "event", delivery: rows[0]!.deliveryId });
    // A header that is not a usable id is no better than none: the event's identity keys it.
    const odd = flatEvent(uniqueId("ver"));
    expect((await send(webhookRequest(odd, { deliveryId: "not an id!" }))).status).toBe(202);
    const [keyed] = await handle.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.publicId, odd.verification_id));
    expect(keyed).toMatchObject({ keySource: "event" });
  });

  it("redelivered delivery id: 200 duplicate, one stored delivery, one audit record, one event", async () => {
    const publicId = uniqueId("ver");
    const deliveryId = uniqueId("dlv");
    const body = flatEvent(publicId);
    expect((await send(webhookRequest(body, { deliveryId }))).status).toBe(202);
    // The sender retries the same delivery (a fresh signature, the same body and id)…
    const again = await send(webhookRequest(body, { deliveryId }));
    expect(again).toEqual({ status: 200, body: { received: true, duplicate: true, ignored: false, unparseable: false } });
    // …even several at once: exactly one is new.
    const burst = await Promise.all([1, 2, 3].map(() => send(webhookRequest(body, { deliveryId }))));
    expect(burst.map((response) => response.status)).toEqual([200, 200, 200]);
    await kickWebhookProcessor();
    expect(await deliveriesOf(deliveryId)).toHaveLength(1);
    expect(await auditFor("webhook.receive", publicId)).toHaveLength(1);
    expect(await eventsOf(publicId)).toHaveLength(1);
  });

  it("simultaneous first deliveries of one id: one 202, the others 200, one row", async () => {
    const deliveryId = uniqueId("dlv");
    const body = flatEvent(uniqueId("ver"));
    const statuses = (await Promise.all([1, 2, 3, 4].map(() => send(webhookRequest(body, { deliveryId }))))).map((r) => r.status);
    expect(statuses.filter((status) => status === 202)).toHaveLength(1);
    expect(statuses.filter((status) => status === 200)).toHaveLength(3);
    expect(await deliveriesOf(deliveryId)).toHaveLength(1);
  });

  it("duplicate event under a new delivery id: stored and processed, still one event, listeners told once", async () => {
    const publicId = uniqueId("ver");
    const flat = flatEvent(publicId, { status: "review", event: "verification.review" });
    const first = uniqueId("dlv");
    const second = uniqueId("dlv");
    expect((await send(webhookRequest(flat, { deliveryId: first }))).status).toBe(202);
    await kickWebhookProcessor();
    expect((await send(webhookRequest(flat, { deliveryId: second }))).status).toBe(202);
    await kickWebhookProcessor();
    expect((await deliveriesOf(first))[0]!.state).toBe("processed");
    expect((await deliveriesOf(second))[0]!.state).toBe("processed");
    expect(await eventsOf(publicId)).toHaveLength(1);
    expect(seen.filter((change) => change.publicId === publicId)).toHaveLength(1);
    const processed = await auditFor("webhook.process", publicId);
    expect(processed.map((row) => row.details.duplicate)).toEqual([false, true]);

    // The envelope shape deduplicates by its event id the same way.
    const envelopeId = uniqueId("ver");
    const envelope = envelopeEvent(envelopeId);
    await send(webhookRequest(envelope));
    await send(webhookRequest(envelope));
    await kickWebhookProcessor();
    expect(await eventsOf(envelopeId)).toHaveLength(1);
  });

  it("signed but unreadable: kept (200, unparseable) with only its size and digest, never processed, shown on the trail", async () => {
    const cases: Array<[string, string]> = [
      ["{not json", "body"],
      ["[1,2]", "body"],
      [JSON.stringify({ verification_id: "ver_1", status: "approved", occurred_at: new Date().toISOString() }), "event"],
      [JSON.stringify(flatEvent("ver_1", { verification_id: "../etc", ref_id: "ref-private-77" })), "verification_id"],
      [JSON.stringify(flatEvent("ver_1", { occurred_at: "yesterday" })), "occurred_at"],
      [JSON.stringify(envelopeEvent("ver_1", { resource: { type: "verification" } })), "resource.public_id"],
    ];
    for (const [raw, field] of cases) {
      const deliveryId = uniqueId("dlv");
      const response = await send(webhookRequest(raw, { deliveryId }));
      expect(response, raw).toEqual({ status: 200, body: { received: true, duplicate: false, ignored: false, unparseable: true } });
      const [row] = await deliveriesOf(deliveryId);
      expect(row, raw).toMatchObject({ state: "unparseable", body: "", bodyBytes: Buffer.byteLength(raw), publicId: null });
      expect(row!.bodySha256).toBe(createHash("sha256").update(raw).digest("hex"));
      expect(row!.lastError?.split(":")[0], raw).toBe(field);
      const [receipt] = await auditFor("webhook.receive", deliveryId);
      expect(receipt, raw).toMatchObject({ outcome: "failure" });
      expect(receipt!.details).toMatchObject({ handling: "unparseable", bytes: Buffer.byteLength(raw), sha256: row!.bodySha256 });
    }
    // Never queued: processing finds nothing to retry, and nothing of the body reached the trail or the rows.
    await kickWebhookProcessor();
    const stored = await handle.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.state, "unparseable"));
    expect(stored.every((row) => row.attempts === 0 && row.processedAt !== null)).toBe(true);
    expect(JSON.stringify(await handle.db.select().from(auditEvents))).not.toContain("ref-private-77");
    expect(JSON.stringify(stored)).not.toContain("ref-private-77");
  });

  it("signed, unreadable and without the delivery header: kept once, by the body's digest, and listed for admins", async () => {
    const raw = `{"event": "verification.updated", "verification_id": ${JSON.stringify(uniqueId("ver"))}, "occurred_at": 17`;
    const first = await send(webhookRequest(raw, { deliveryId: null }));
    expect(first).toEqual({ status: 200, body: { received: true, duplicate: false, ignored: false, unparseable: true } });
    // The same bytes again (the provider redelivers what it did not see answered): one record.
    const again = await send(webhookRequest(raw, { deliveryId: null }));
    expect(again).toEqual({ status: 200, body: { received: true, duplicate: true, ignored: false, unparseable: true } });
    const key = `body:${createHash("sha256").update(raw).digest("hex")}`;
    const rows = await deliveriesOf(key);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ keySource: "body", state: "unparseable", event: "unreadable" });
    // What an admin reads on /admin/audit: the failed receipt, filtered by its outcome.
    const trail = await listAuditEvents(handle.db, { action: "webhook.receive", outcome: "failure", target: key }, { limit: 10 });
    expect(trail.events).toHaveLength(1);
    expect(trail.events[0]!.details).toMatchObject({ handling: "unparseable", deliveryKey: "body", problem: "body: not JSON" });
  });

  it("oversize body: 413 before the signature is even checked, nothing stored", async () => {
    const deliveryId = uniqueId("dlv");
    const big = flatEvent(uniqueId("ver"), { padding: "x".repeat(70 * 1024) });
    expect((await send(webhookRequest(big, { deliveryId }))).status).toBe(413);
    expect(await deliveriesOf(deliveryId)).toEqual([]);
  });

  it("a body that is not declared JSON: 415, nothing stored", async () => {
    const deliveryId = uniqueId("dlv");
    const response = await send(webhookRequest(flatEvent(uniqueId("ver")), { deliveryId, contentType: "text/plain" }));
    expect(response.status).toBe(415);
    expect(await deliveriesOf(deliveryId)).toEqual([]);
  });

  it("unknown event type: acknowledged (202, ignored), stored settled for dedupe and the trail, no event, no listener", async () => {
    const publicId = uniqueId("ver");
    const deliveryId = uniqueId("dlv");
    const response = await send(webhookRequest(flatEvent(publicId, { event: "flow.published" }), { deliveryId }));
    expect(response).toEqual({ status: 202, body: { received: true, duplicate: false, ignored: true, unparseable: false } });
    await kickWebhookProcessor();
    expect((await deliveriesOf(deliveryId))[0]).toMatchObject({ state: "ignored", event: "flow.published" });
    expect(await eventsOf(publicId)).toEqual([]);
    expect(seen.some((change) => change.publicId === publicId)).toBe(false);
    expect((await auditFor("webhook.receive", publicId))[0]!.details).toMatchObject({ handling: "ignored" });
  });

  it("needs no session and accepts a cross-site Origin (the signature is the authentication)", async () => {
    const response = await send(webhookRequest(flatEvent(uniqueId("ver")), { headers: { origin: "https://elsewhere.example" } }));
    expect(response.status).toBe(202);
  });

  it("logs ids, event type and status only: never the body's other fields or the signature", async () => {
    logLines.length = 0;
    const publicId = uniqueId("ver");
    // A score no logged number can be by chance (durations are whole milliseconds).
    const request = webhookRequest(flatEvent(publicId, { ref_id: "ref-secret-4821", identity_score: 91.37 }));
    const signature = request.headers.get("x-legitimuz-signature")!;
    await send(request);
    await send(webhookRequest(flatEvent(publicId, { ref_id: "ref-secret-4821" }), { secret: "wrong-secret-0123456789abcdef" }));
    await kickWebhookProcessor();
    const text = logLines.join("\n");
    expect(text).toContain(publicId);
    expect(text).toContain(`"event":"webhook_processed"`);
    expect(text).toContain(`"eventType":"verification.updated"`);
    expect(text).toContain("webhook_refused");
    expect(text).not.toContain("ref-secret-4821");
    // Looked for among the logged values, not in the text: a timestamp's milliseconds once read "777", the score then.
    const leaves = (value: unknown): unknown[] => (value && typeof value === "object" ? Object.values(value).flatMap(leaves) : [value]);
    expect(logLines.flatMap((line) => leaves(JSON.parse(line)))).not.toContain(91.37);
    expect(text).not.toContain("identity_score");
    expect(text).not.toContain(signature.split("v1=")[1]!);
    expect(text).not.toContain(TEST_WEBHOOK_SECRET);
  });
});
