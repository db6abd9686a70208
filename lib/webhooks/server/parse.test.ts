import { describe, expect, it } from "vitest";

import { fallbackDeliveryKey, parseDelivery } from "./parse";

/*
 * Both shapes of the provider's material, as fixtures with our own values: the core documentation's flat
 * event (api/webhooks.mdx) and the examples' envelope (pocs/webhook-receiver/lib/tipos.ts).
 */

const flat = {
  event: "verification.updated",
  verification_id: "0197f3a1-8c4d-7b2e-9f01-2a3b4c5d6e7f",
  ref_id: "cadastro-77",
  status: "approved",
  identity_score: 64,
  fraud_score: 12,
  occurred_at: "2026-03-02T10:00:00Z",
};
const envelope = {
  id: "evt_01HZX",
  event: "verification.decided",
  occurred_at: "2026-03-02T10:05:00-03:00",
  tenant_public_id: "ten_9",
  resource: { type: "verification", public_id: "ver_abc" },
  verification: { status: "review", ref_id: null, decided_at: "2026-03-02T13:05:00Z" },
  a_field_added_later: { nested: true },
};

describe("parseDelivery", () => {
  it("reads the documentation's flat event", () => {
    const read = parseDelivery(JSON.stringify(flat));
    expect(read).toEqual({
      kind: "verification",
      parsed: {
        eventKey: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
        publicId: flat.verification_id,
        event: "verification.updated",
        status: "approved",
        refId: "cadastro-77",
        occurredAt: new Date("2026-03-02T10:00:00Z"),
        identityScore: 64,
        fraudScore: 12,
        decidedAt: null,
        tenantPublicId: null,
      },
    });
  });

  it("leaves out an addition it cannot read rather than refusing the event", () => {
    const read = parseDelivery(JSON.stringify({ ...flat, identity_score: "high", fraud_score: null }));
    expect(read.kind === "verification" && [read.parsed.identityScore, read.parsed.fraudScore]).toEqual([null, null]);
    const odd = parseDelivery(
      JSON.stringify({ ...envelope, tenant_public_id: "ten 9 / x", verification: { status: "approved", decided_at: "soon" } }),
    );
    expect(odd.kind === "verification" && [odd.parsed.tenantPublicId, odd.parsed.decidedAt, odd.parsed.status]).toEqual([
      null,
      null,
      "approved",
    ]);
  });

  it("gives one flat event one key, whatever the key order or spacing of a redelivery", () => {
    const a = parseDelivery(JSON.stringify(flat));
    const b = parseDelivery(JSON.stringify({ ...flat, event: flat.event }, null, 2));
    const reordered = parseDelivery(JSON.stringify(Object.fromEntries(Object.entries(flat).reverse())));
    const other = parseDelivery(JSON.stringify({ ...flat, status: "reproved" }));
    const key = (read: ReturnType<typeof parseDelivery>) => (read.kind === "verification" ? read.parsed.eventKey : null);
    expect(key(b)).toBe(key(a));
    expect(key(reordered)).toBe(key(a));
    expect(key(other)).not.toBe(key(a));
  });

  it("reads the examples' envelope, unknown fields and all", () => {
    expect(parseDelivery(JSON.stringify(envelope))).toEqual({
      kind: "verification",
      parsed: {
        eventKey: "id:evt_01HZX",
        publicId: "ver_abc",
        event: "verification.decided",
        status: "review",
        refId: null,
        occurredAt: new Date("2026-03-02T13:05:00Z"),
        identityScore: null,
        fraudScore: null,
        decidedAt: new Date("2026-03-02T13:05:00Z"),
        tenantPublicId: "ten_9",
      },
    });
  });

  it("takes the status from an outcome event's name when the body leaves it out", () => {
    const read = parseDelivery(JSON.stringify({ ...envelope, event: "verification.approved", verification: undefined }));
    expect(read.kind === "verification" && read.parsed.status).toBe("approved");
    const expired = parseDelivery(JSON.stringify({ ...flat, event: "verification.expired", status: undefined }));
    expect(expired.kind === "verification" && expired.parsed.status).toBeNull();
  });

  it("ignores events the dashboard does not use, keeping the verification id when there is one", () => {
    expect(parseDelivery(JSON.stringify({ ...flat, event: "flow.published" }))).toEqual({
      kind: "ignored",
      event: "flow.published",
      publicId: flat.verification_id,
      occurredAt: new Date(flat.occurred_at),
      tenantPublicId: null,
    });
    expect(parseDelivery(JSON.stringify({ id: "e1", event: "case.decided", resource: { type: "case", public_id: "../x" } }))).toEqual({
      kind: "ignored",
      event: "case.decided",
      publicId: null,
      occurredAt: null,
      tenantPublicId: null,
    });
  });

  it("names what makes a body unreadable", () => {
    const problem = (raw: string) => {
      const read = parseDelivery(raw);
      return read.kind === "malformed" ? read.problem.split(":")[0] : read.kind;
    };
    expect(problem("nope")).toBe("body");
    expect(problem("null")).toBe("body");
    expect(problem(JSON.stringify({ ...flat, event: "Verification Updated" }))).toBe("event");
    expect(problem(JSON.stringify({ ...flat, verification_id: "a/b" }))).toBe("verification_id");
    expect(problem(JSON.stringify({ ...flat, occurred_at: "2026-03-02 10:00" }))).toBe("occurred_at");
    expect(problem(JSON.stringify({ ...flat, status: "Approved!" }))).toBe("status");
    expect(problem(JSON.stringify({ ...envelope, resource: { type: "flow", public_id: "f1" } }))).toBe("resource.type");
  });

  it("keys a delivery without a usable delivery id by the event's identity, else by the body's bytes", () => {
    const key = (raw: string) => fallbackDeliveryKey(parseDelivery(raw), raw);
    const first = key(JSON.stringify(flat));
    expect(first).toEqual({ key: expect.stringMatching(/^event:[0-9a-f]{64}$/), source: "event" });
    // Name, verification and time make the identity: spacing, field order and the other fields do not.
    expect(key(JSON.stringify({ ...flat, fraud_score: 13 }, null, 2))).toEqual(first);
    expect(key(JSON.stringify({ ...flat, occurred_at: "2026-03-02T07:00:00-03:00" }))).toEqual(first);
    expect(key(JSON.stringify({ ...flat, occurred_at: "2026-03-02T10:00:01Z" }))).not.toEqual(first);
    expect(key(JSON.stringify({ ...flat, event: "verification.approved" }))).not.toEqual(first);
    // Both shapes: the envelope's event of the same name, verification and time is the same event.
    expect(
      key(
        JSON.stringify({
          ...envelope,
          event: "verification.updated",
          resource: { type: "verification", public_id: flat.verification_id },
          occurred_at: flat.occurred_at,
        }),
      ),
    ).toEqual(first);
    // Nothing to identify: the body's digest, the same bytes the same key.
    expect(key("{oops")).toEqual({ key: expect.stringMatching(/^body:[0-9a-f]{64}$/), source: "body" });
    expect(key("{oops")).toEqual(key("{oops"));
    expect(key("{oops ")).not.toEqual(key("{oops"));
    expect(key(JSON.stringify({ event: "flow.published", flow_id: "f1" })).source).toBe("body");
  });
});
