/*
 * Webhooks out: every change of a verification is signed and POSTed to the configured destination, and
 * redelivered on failure. Sources (sandbox/README.md, "Webhooks out"): event names from
 * Legitimuz-Tech/legitimuz-core-documentation api/webhooks.mdx (afcc2cb); the signature header, the delivery header,
 * the signed string and the envelope payload from Legitimuz-Tech/legitimuz-examples pocs/express-backend,
 * pocs/webhook-receiver/lib/tipos.ts (dec4b2c); the flat payload from api/webhooks.mdx; "up to six attempts" from
 * pocs/webhook-receiver/README.md. The backoff schedule itself is not shown there: ours is an assumption.
 *
 * The material disagrees on the shape, so both are offered, per sandbox (SANDBOX_WEBHOOK_SHAPE, POST /sandbox/webhooks)
 * or per change (the status control route's `shape`): `flat`, the documentation's example, and `envelope`, the
 * examples'. Only the examples send `X-Legitimuz-Delivery` (the documentation names no delivery header), so it can be
 * left out the same ways (`delivery_header: false`), to see a receiver cope without it.
 *
 * The destination can be paused and resumed, and reads `failing` after failed attempts (webhook-destination.ts). A test
 * delivery (the dashboard's "Testar" button in legitimuz-examples pocs/local-tunnel/README.md, dec4b2c) goes the same
 * way as every delivery; its event name and payload are not shown anywhere, so both are sandbox assumptions.
 */
import { createHmac, randomUUID } from "node:crypto";

import type { Clock } from "./clock";
import type { WebhookShape } from "./config";
import { DestinationHealth, type DestinationState } from "./webhook-destination";

export const VERIFICATION_EVENTS = [
  "verification.created",
  "verification.updated",
  "verification.approved",
  "verification.reproved",
  "verification.review",
  "verification.expired",
] as const;
export type VerificationEvent = (typeof VERIFICATION_EVENTS)[number];
/** The test delivery's event: no name is given in the material (sandbox assumption). */
const TEST_EVENT = "webhook.test";
type WebhookEvent = VerificationEvent | typeof TEST_EVENT;

/** Seconds to wait after failed attempt n (1-based) before attempt n+1; six attempts in all (assumption). */
export const RETRY_DELAYS_SECONDS = [60, 300, 1800, 7200, 21600] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;
const ATTEMPT_TIMEOUT_MS = 10_000;
const KEPT_DELIVERIES = 1000;

export interface ChangedVerification {
  publicId: string;
  refId: string | null;
  status: string;
  decidedAt: number | null;
  identityScore: number;
  riskScore: number;
  tenantPublicId: string;
}

/**
 * What a test delivery describes, in the configured shape: no verification (the nil UUID, which matches none), nothing
 * decided, the seeded account's tenant (verification-events.ts). Sandbox assumption.
 */
const TEST_CHANGE: ChangedVerification = {
  publicId: "00000000-0000-0000-0000-000000000000",
  refId: null,
  status: "not_opened",
  decidedAt: null,
  identityScore: 0,
  riskScore: 0,
  tenantPublicId: "tnt_sandbox_main",
};

interface Attempt {
  at: string;
  /** The destination's HTTP status, or null when there was no answer (refused, timed out). */
  status: number | null;
  error?: string;
}

/** How one change's deliveries are sent, when the call says otherwise than the sandbox's settings. */
export interface DeliveryOptions {
  shape?: WebhookShape;
  deliveryHeader?: boolean;
}

interface Delivery {
  id: string;
  event_id: string;
  event: WebhookEvent;
  public_id: string;
  url: string;
  shape: WebhookShape;
  /** Whether `X-Legitimuz-Delivery` goes with it (the examples'), or not (the documentation shows none). */
  delivery_header: boolean;
  /**
   * pending (an attempt is due or running, or the destination is paused), delivered (a 2xx came back) or failed
   * (attempts exhausted).
   */
  status: "pending" | "delivered" | "failed";
  attempts: Attempt[];
  /** On the sandbox clock; null once settled, and while the destination is paused. */
  next_attempt_at: string | null;
  body: string;
  secret: string;
  nextAttemptMs: number | null;
  inFlight: boolean;
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. */
export function signature(secret: string, body: string, timestamp: number): string {
  const mac = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
  return `t=${timestamp},v1=${mac}`;
}

/** A test delivery's answer: the delivery, its first attempt, and what that made of the destination. */
interface TestDeliveryOutcome {
  id: string;
  event: WebhookEvent;
  status: Delivery["status"];
  attempt: Attempt;
  destination_state: DestinationState;
}

function payload(shape: WebhookShape, eventId: string, event: WebhookEvent, change: ChangedVerification, occurredAt: string): string {
  // Source: legitimuz-core-documentation api/webhooks.mdx (afcc2cb), its one example: no event id, no tenant, no
  // decision time; the scores. `fraud_score` carries the risk score (the example's name for it).
  if (shape === "flat") {
    return JSON.stringify({
      event,
      verification_id: change.publicId,
      ref_id: change.refId,
      status: change.status,
      identity_score: change.identityScore,
      fraud_score: change.riskScore,
      occurred_at: occurredAt,
    });
  }
  // Source: legitimuz-examples pocs/webhook-receiver/lib/tipos.ts (dec4b2c): the event id, the tenant, the resource and
  // the verification's status, ref_id and decision time; no scores.
  return JSON.stringify({
    id: eventId,
    event,
    occurred_at: occurredAt,
    tenant_public_id: change.tenantPublicId,
    resource: { type: "verification", public_id: change.publicId },
    verification: {
      status: change.status,
      ref_id: change.refId,
      decided_at: change.decidedAt === null ? null : new Date(change.decidedAt).toISOString(),
    },
  });
}

export class WebhookOutbox {
  private url: string | null;
  private secret: string;
  private shape: WebhookShape;
  private deliveryHeader: boolean;
  private readonly destination = new DestinationHealth();
  private deliveries: Delivery[] = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly controllers = new Set<AbortController>();

  constructor(
    private readonly clock: Clock,
    options: { url: string | null; secret: string; shape: WebhookShape; deliveryHeader?: boolean },
  ) {
    this.url = options.url;
    this.secret = options.secret;
    this.shape = options.shape;
    this.deliveryHeader = options.deliveryHeader ?? true;
  }

  configure(url: string | null, secret: string, shape: WebhookShape = this.shape, deliveryHeader: boolean = this.deliveryHeader): void {
    if (url !== this.url) this.destination.forgetFailures();
    this.url = url;
    this.secret = secret;
    this.shape = shape;
    this.deliveryHeader = deliveryHeader;
  }

  settings(): { url: string | null; shape: WebhookShape; delivery_header: boolean; secret_set: boolean; state: DestinationState } {
    return {
      url: this.url,
      shape: this.shape,
      delivery_header: this.deliveryHeader,
      secret_set: this.secret !== "",
      state: this.destination.state(),
    };
  }

  /** Holds every pending delivery, retries included: none is attempted until resume(). */
  pause(): void {
    this.destination.pause();
    for (const delivery of this.pending()) this.schedule(delivery, null);
  }

  /** Every pending delivery is due at once. */
  resume(): void {
    this.destination.resume();
    for (const delivery of this.pending()) this.schedule(delivery, this.clock.now());
    void this.tick();
  }

  /**
   * Queues one event per name; nothing when no destination is configured. The first attempt is due now (or on resume,
   * while paused). `options` override the shape and the delivery header for this change only.
   */
  emit(events: VerificationEvent[], change: ChangedVerification, options: DeliveryOptions = {}): void {
    if (!this.url) return;
    const now = this.clock.now();
    for (const event of events) this.enqueue(this.url, event, change, options, now);
    void this.tick();
  }

  /**
   * Sends a test delivery now and answers after its first attempt; later attempts follow the usual schedule. Null when
   * there is no destination or it is paused (sandbox assumption: a paused destination is not tested).
   */
  async sendTest(): Promise<TestDeliveryOutcome | null> {
    if (!this.url || this.destination.isPaused()) return null;
    const delivery = this.enqueue(this.url, TEST_EVENT, TEST_CHANGE, {}, this.clock.now());
    await this.attempt(delivery);
    const { id, event, status, attempts } = delivery;
    return { id, event, status, attempt: attempts[0]!, destination_state: this.destination.state() };
  }

  /** What was sent, newest last: never the secret; the body is included (it holds no personal data). */
  list(): Array<Omit<Delivery, "secret" | "nextAttemptMs" | "inFlight" | "body"> & { payload: unknown }> {
    return this.deliveries.map(({ secret: _secret, nextAttemptMs: _next, inFlight: _inFlight, body, ...rest }) => ({
      ...rest,
      attempts: [...rest.attempts],
      payload: JSON.parse(body) as unknown,
    }));
  }

  /** Attempts every delivery that is due on the sandbox clock. */
  async tick(): Promise<void> {
    const now = this.clock.now();
    const due = this.pending().filter((d) => !d.inFlight && d.nextAttemptMs !== null && d.nextAttemptMs <= now);
    await Promise.all(due.map((delivery) => this.attempt(delivery)));
  }

  start(intervalMs = 200): void {
    this.timer ??= setInterval(() => void this.tick(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const controller of this.controllers) controller.abort();
  }

  private pending(): Delivery[] {
    return this.deliveries.filter((delivery) => delivery.status === "pending");
  }

  private enqueue(url: string, event: WebhookEvent, change: ChangedVerification, options: DeliveryOptions, now: number): Delivery {
    const shape = options.shape ?? this.shape;
    const eventId = randomUUID();
    const occurredAt = new Date(now).toISOString().replace(/\.\d{3}Z$/, "Z");
    const delivery: Delivery = {
      id: randomUUID(),
      event_id: eventId,
      event,
      public_id: change.publicId,
      url,
      shape,
      delivery_header: options.deliveryHeader ?? this.deliveryHeader,
      status: "pending",
      attempts: [],
      next_attempt_at: null,
      body: payload(shape, eventId, event, change, occurredAt),
      secret: this.secret,
      nextAttemptMs: null,
      inFlight: false,
    };
    this.schedule(delivery, now);
    this.deliveries.push(delivery);
    if (this.deliveries.length > KEPT_DELIVERIES) this.deliveries.splice(0, this.deliveries.length - KEPT_DELIVERIES);
    return delivery;
  }

  /** When the next attempt is due (sandbox clock): none while the destination is paused. */
  private schedule(delivery: Delivery, atMs: number | null): void {
    delivery.nextAttemptMs = this.destination.isPaused() ? null : atMs;
    delivery.next_attempt_at = delivery.nextAttemptMs === null ? null : new Date(delivery.nextAttemptMs).toISOString();
  }

  private async attempt(delivery: Delivery): Promise<void> {
    delivery.inFlight = true;
    const outcome = await this.post(delivery);
    delivery.inFlight = false;
    this.settle(delivery, outcome);
  }

  /** One POST to the destination, signed now; its HTTP status, or null and why when no answer came. */
  private async post(delivery: Delivery): Promise<Attempt> {
    const controller = new AbortController();
    this.controllers.add(controller);
    const timer = setTimeout(() => controller.abort(), ATTEMPT_TIMEOUT_MS);
    const at = new Date(this.clock.now()).toISOString();
    try {
      // The signature's timestamp is real time, not the sandbox clock: the receiver checks it against its own
      // clock, and a test that advances the sandbox clock to reach a redelivery must not make it stale.
      const response = await fetch(delivery.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "sandbox-webhooks/1",
          "x-legitimuz-signature": signature(delivery.secret, delivery.body, Math.floor(Date.now() / 1000)),
          ...(delivery.delivery_header ? { "x-legitimuz-delivery": delivery.id } : {}),
        },
        body: delivery.body,
        redirect: "manual",
        signal: controller.signal,
      });
      await response.arrayBuffer().catch(() => undefined);
      return { at, status: response.status };
    } catch (error) {
      const reason = controller.signal.aborted ? "timeout" : (error as { cause?: { code?: string } }).cause?.code;
      return { at, status: null, error: reason ?? "network error" };
    } finally {
      clearTimeout(timer);
      this.controllers.delete(controller);
    }
  }

  /** Records an attempt: delivered on a 2xx, failed after the last one, else the next is scheduled. */
  private settle(delivery: Delivery, outcome: Attempt): void {
    delivery.attempts.push(outcome);
    const delivered = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    // Only the current destination's health: a delivery still owed to a previous URL says nothing about it.
    if (delivery.url === this.url) this.destination.record(delivered);
    if (delivered) delivery.status = "delivered";
    else if (delivery.attempts.length >= MAX_ATTEMPTS) delivery.status = "failed";
    this.schedule(delivery, delivery.status === "pending" ? this.retryAt(delivery) : null);
  }

  /** The backoff after the latest failed attempt, on the sandbox clock. */
  private retryAt(delivery: Delivery): number {
    return this.clock.now() + RETRY_DELAYS_SECONDS[delivery.attempts.length - 1]! * 1000;
  }
}
