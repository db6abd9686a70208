import { describe, expect, it } from "vitest";

import { parseDelivery } from "./parse";

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
      },
    });
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
    });
    expect(parseDelivery(JSON.stringify({ id: "e1", event: "case.decided", resource: { type: "case", public_id: "../x" } }))).toEqual({
      kind: "ignored",
      event: "case.decided",
      publicId: null,
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
});
