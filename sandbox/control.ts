/*
 * Control routes (/sandbox), for tests and demos only: health, the request log, the clock, fault injection,
 * the webhook destination and its deliveries, verification changes, facts about people and the SMS outbox. Not part of the
 * service; never faulted and never logged.
 */
import { KeyValidity } from "./api-keys";
import type { FaultRule } from "./config";
import { validCpf } from "./fixtures/cpf";
import { personFromCpf } from "./fixtures/people";
import { STATUSES, type Status } from "./fixtures/verifications";
import { json, mediaType, type Ctx, type Reply, type Router } from "./http";
import { parseFactsChange } from "./person-facts";
import type { SandboxState } from "./state";
import { REVIEW_STATES, type ReviewState } from "./verification-store";
import type { DeliveryOptions, VerificationEvent } from "./webhooks";

const bad = (message: string) => json(400, { message });

async function readJson(ctx: Ctx): Promise<Record<string, unknown> | Reply> {
  if (mediaType(ctx.header("content-type")) !== "application/json") return json(415, { message: "Send application/json." });
  try {
    const value: unknown = JSON.parse((await ctx.body()).toString("utf8"));
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  return bad("The body must be a JSON object.");
}

function isReply(value: unknown): value is Reply {
  return typeof value === "object" && value !== null && "status" in value && Buffer.isBuffer((value as Reply).body);
}

/** A change's own delivery settings (`shape`, `delivery_header`), or a message naming the bad one. */
function deliveryOptions(body: Record<string, unknown>): DeliveryOptions | string {
  const options: DeliveryOptions = {};
  if (body.shape !== undefined) {
    if (body.shape !== "envelope" && body.shape !== "flat") return "shape must be envelope or flat.";
    options.shape = body.shape;
  }
  if (body.delivery_header !== undefined) {
    if (typeof body.delivery_header !== "boolean") return "delivery_header must be true or false.";
    options.deliveryHeader = body.delivery_header;
  }
  return options;
}

function clockState(state: SandboxState): Reply {
  return json(200, { now: new Date(state.clock.now()).toISOString(), offset_seconds: state.clock.offsetSeconds() });
}

const FAULT_FIELDS = ["path_prefix", "latency_ms", "error_rate", "timeout_rate", "malformed_rate", "status"];

export function parseFaultRule(body: Record<string, unknown>): FaultRule | string {
  const unknown = Object.keys(body).filter((key) => !FAULT_FIELDS.includes(key));
  if (unknown.length > 0) return `Unknown field(s): ${unknown.join(", ")}.`;
  const rule: FaultRule = { path_prefix: "/", latency_ms: 0, error_rate: 0, timeout_rate: 0, malformed_rate: 0, status: 503 };
  if (body.path_prefix !== undefined) {
    if (typeof body.path_prefix !== "string" || !body.path_prefix.startsWith("/")) return "path_prefix must be a path starting with /.";
    if (body.path_prefix.startsWith("/sandbox")) return "Control routes cannot be faulted.";
    rule.path_prefix = body.path_prefix;
  }
  if (body.latency_ms !== undefined) {
    if (!Number.isInteger(body.latency_ms) || (body.latency_ms as number) < 0 || (body.latency_ms as number) > 600_000)
      return "latency_ms must be an integer between 0 and 600000.";
    rule.latency_ms = body.latency_ms as number;
  }
  for (const name of ["error_rate", "timeout_rate", "malformed_rate"] as const) {
    const value = body[name];
    if (value === undefined) continue;
    if (typeof value !== "number" || !(value >= 0 && value <= 1)) return `${name} must be a number between 0 and 1.`;
    rule[name] = value;
  }
  if (body.status !== undefined) {
    if (!Number.isInteger(body.status) || (body.status as number) < 400 || (body.status as number) > 599)
      return "status must be an integer between 400 and 599.";
    rule.status = body.status as number;
  }
  return rule;
}

export function controlRoutes(state: SandboxState, router: Router): void {
  router
    .add("GET", "/sandbox/health", () => json(200, { ok: true }))
    .add("GET", "/sandbox/requests", (ctx) => {
      // `?after=<seq>`: only what came after a reader's cursor, so readers never need to clear the log.
      const after = ctx.query.get("after");
      if (after === null) return json(200, { requests: state.log.all() });
      if (!/^\d+$/.test(after)) return bad("after must be a sequence number (0 or more).");
      return json(200, state.log.since(Number(after)));
    })
    .add("DELETE", "/sandbox/requests", () => {
      state.log.clear();
      return json(200, { requests: [] });
    })
    .add("GET", "/sandbox/clock", () => clockState(state))
    .add("POST", "/sandbox/clock", async (ctx) => {
      const body = await readJson(ctx);
      if (isReply(body)) return body;
      const seconds = body.advance_seconds;
      if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds < 0)
        return bad("advance_seconds must be a number of seconds, 0 or more.");
      state.clock.advance(seconds);
      // Whatever became due (a redelivery, an expiry) starts now rather than on the next timer tick.
      void state.events.tick();
      return clockState(state);
    })
    .add("DELETE", "/sandbox/clock", () => {
      state.clock.reset();
      return clockState(state);
    })
    .add("POST", "/sandbox/keys/:public_part/grace", async (ctx) => {
      // The provider's console rotating a key: the old one works `seconds` more (null: lifts it), then is refused.
      const body = await readJson(ctx);
      if (isReply(body)) return body;
      const seconds = body.seconds;
      const valid =
        seconds === null || (Number.isInteger(seconds) && (seconds as number) >= 0 && (seconds as number) <= KeyValidity.MAX_GRACE_SECONDS);
      if (!valid) return bad(`seconds must be a whole number from 0 to ${KeyValidity.MAX_GRACE_SECONDS}, or null.`);
      const known = state.keys.grace(ctx.params.public_part ?? "", seconds as number | null, state.clock.now());
      return known ? json(200, { public_part: ctx.params.public_part, seconds }) : json(404, { message: "No key has this public part." });
    })
    .add("GET", "/sandbox/faults", () => json(200, { faults: state.faults.all() }))
    .add("POST", "/sandbox/faults", async (ctx) => {
      const body = await readJson(ctx);
      if (isReply(body)) return body;
      const rule = parseFaultRule(body);
      if (typeof rule === "string") return bad(rule);
      state.faults.set(rule);
      return json(200, { faults: state.faults.all() });
    })
    .add("DELETE", "/sandbox/faults", () => {
      state.faults.clear();
      return json(200, { faults: [] });
    })
    .add("POST", "/sandbox/webhooks", async (ctx) => {
      const body = await readJson(ctx);
      if (isReply(body)) return body;
      const unknown = Object.keys(body).filter((key) => !["url", "secret", "shape", "delivery_header"].includes(key));
      if (unknown.length > 0) return bad(`Unknown field(s): ${unknown.join(", ")}.`);
      const { url, secret } = body;
      if (url !== null && (typeof url !== "string" || !/^https?:\/\//.test(url) || !URL.canParse(url)))
        return bad("url must be an http(s) URL or null.");
      if (typeof secret !== "string") return bad("secret must be a string.");
      const options = deliveryOptions(body);
      if (typeof options === "string") return bad(options);
      state.webhooks.configure(url, secret, options.shape, options.deliveryHeader);
      return json(200, state.webhooks.settings());
    })
    .add("GET", "/sandbox/webhooks", () => json(200, state.webhooks.settings()))
    .add("GET", "/sandbox/webhooks/deliveries", () => json(200, { deliveries: state.webhooks.list() }))
    .add("POST", "/sandbox/webhooks/pause", () => {
      state.webhooks.pause();
      return json(200, state.webhooks.settings());
    })
    .add("POST", "/sandbox/webhooks/resume", () => {
      state.webhooks.resume();
      return json(200, state.webhooks.settings());
    })
    .add("POST", "/sandbox/webhooks/test", async () => {
      const outcome = await state.webhooks.sendTest();
      if (outcome) return json(200, outcome);
      const why =
        state.webhooks.settings().url === null ? "No webhook destination is configured." : "The destination is paused: resume it first.";
      return json(409, { message: why });
    })
    .add("POST", "/sandbox/verifications/:public_id/status", async (ctx) => {
      const body = await readJson(ctx);
      if (isReply(body)) return body;
      const wanted = body.status;
      const located = state.verifications.locate(ctx.params.public_id ?? "");
      if (!located) return json(404, { message: "No such verification." });
      const options = deliveryOptions(body);
      if (typeof options === "string") return bad(options);
      const reviewState = body.review_state;
      if (reviewState !== undefined && (wanted !== "review" || !(REVIEW_STATES as readonly unknown[]).includes(reviewState)))
        return bad(`review_state goes with status review and is one of ${REVIEW_STATES.join(", ")}.`);
      const now = state.clock.now();
      if (wanted === "expired") {
        // Expiry is not a status (api/verification-statuses.mdx): the flow ends, the status stays.
        const record = located.store.expire(located.record.publicId, now)!;
        state.events.announceExpired(located, record, options);
        return json(200, { public_id: record.publicId, status: record.status, events: ["verification.expired"] });
      }
      if (typeof wanted !== "string" || !(STATUSES as readonly string[]).includes(wanted)) {
        return bad(`status must be one of ${[...STATUSES, "expired"].join(", ")}.`);
      }
      const record = located.store.setStatus(located.record.publicId, wanted as Status, now, reviewState as ReviewState | undefined)!;
      if (wanted === "not_opened" || wanted === "started") state.events.reopened(record.publicId);
      const events: VerificationEvent[] = ["verification.updated"];
      if (wanted === "approved" || wanted === "reproved" || wanted === "review") events.push(`verification.${wanted}`);
      state.events.announce(located, record, events, options);
      return json(200, {
        public_id: record.publicId,
        status: record.status,
        decided_at: record.decidedAt === null ? null : new Date(record.decidedAt).toISOString(),
        ...(wanted === "review" ? { review_state: located.store.reviewStateOf(record) } : {}),
        events,
      });
    })
    .add("POST", "/sandbox/verifications/:public_id/created-at", async (ctx) => {
      const body = await readJson(ctx);
      if (isReply(body)) return body;
      const at = typeof body.created_at === "string" ? Date.parse(body.created_at) : NaN;
      if (!Number.isFinite(at) || at > state.clock.now()) return bad("created_at must be a past ISO 8601 time.");
      const publicId = ctx.params.public_id ?? "";
      if (!state.verifications.locate(publicId)) return json(404, { message: "No such verification." });
      const record = state.verifications.locate(publicId)!.store.backdate(publicId, at);
      if (!record) return json(409, { message: "Only a verification created through the API can be moved back in time." });
      return json(200, { public_id: record.publicId, created_at: new Date(record.createdAt).toISOString() });
    })
    .add("POST", "/sandbox/people/:cpf/facts", async (ctx) => {
      // What the service learns about a person after their verification: PEP, restrictive lists, death.
      const cpf = validCpf(ctx.params.cpf ?? "");
      if (!cpf) return bad("cpf must be a valid CPF (11 digits, check digits included).");
      const body = await readJson(ctx);
      if (isReply(body)) return body;
      const change = parseFactsChange(body, new Date(state.clock.now()).toISOString().slice(0, 10));
      if (typeof change === "string") return bad(change);
      state.people.set(cpf, change);
      const person = state.people.of(personFromCpf(cpf));
      return json(200, {
        pep: person.pep,
        pep_origin: person.pepOrigin,
        restrictive_lists: person.restrictiveLists.map((list) => list.name),
        deceased: person.deceased,
      });
    })
    .add("GET", "/sandbox/sms/outbox", (ctx) => {
      const phone = (ctx.query.get("phone") ?? "").trim().replace(/^\+/, "");
      const code = state.sms.lastSent(phone);
      return code === undefined ? json(404, { message: "No code was sent to this phone." }) : json(200, { code });
    });
}
