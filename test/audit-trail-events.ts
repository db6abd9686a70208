import "server-only";

import { afterAll, beforeAll, vi } from "vitest";

import { recordEvent, type AuditEvent } from "@/lib/audit-trail/server/record";
import { stubTestEnvironment, type TestDatabase, type TestDatabaseKind } from "@/test/db";

/*
 * The audit trail's test events (twelve, with their labels) and the suite that reads and checks them on one
 * database (describeEachDatabase's). Vitest only: trailSuite registers hooks.
 */

export const ANA = { id: "0b0e3a52-9f6d-4d55-9a53-0d7c0f4f1a01", email: "ana@example.com" };
export const BRUNO = { id: "0b0e3a52-9f6d-4d55-9a53-0d7c0f4f1a02", email: "bruno@example.com" };
export const CPF_A = "52998224725";
export const CPF_B = "11144477735";
export const BASE = Date.parse("2026-03-10T12:00:00.000Z");
export const minutes = (n: number) => new Date(BASE + n * 60_000);

// Twelve events, deliberately out of `at` order by id for two of them (clock skew between instances),
// and two sharing one millisecond (the cursor must neither skip nor repeat one of them).
export const EVENTS: Array<AuditEvent & { label: string }> = [
  { label: "e1", actor: ANA, action: "auth.sign_in", outcome: "success", ip: "10.0.0.1", at: minutes(0) },
  {
    label: "e2",
    actor: ANA,
    action: "lookup.cpf",
    target: { type: "cpf", cpf: CPF_A },
    purpose: "onboarding",
    outcome: "success",
    ip: "10.0.0.1",
    at: minutes(1),
  },
  {
    label: "e3",
    actor: BRUNO,
    action: "lookup.cpf",
    target: { type: "cpf", cpf: CPF_B },
    purpose: "fraud check",
    outcome: "failure",
    ip: "10.0.0.2",
    at: minutes(2),
  },
  {
    label: "e4",
    actor: BRUNO,
    action: "verification.view",
    target: { type: "verification", id: "vrf_001" },
    outcome: "success",
    at: minutes(3),
  },
  {
    label: "e5",
    actor: null,
    action: "auth.sign_in",
    outcome: "failure",
    ip: "10.0.0.9",
    details: { reason: "bad_password" },
    at: minutes(4),
  },
  { label: "e6", actor: ANA, action: "kyc.session_create", target: { type: "cpf", cpf: CPF_A }, outcome: "success", at: minutes(5) },
  { label: "e7", actor: BRUNO, action: "audit.view", outcome: "denied", at: minutes(6) },
  {
    label: "e8",
    actor: ANA,
    action: "verification.view",
    target: { type: "verification", id: "vrf_002" },
    outcome: "success",
    at: minutes(8),
  },
  {
    label: "e9",
    actor: ANA,
    action: "verification.view",
    target: { type: "verification", id: "vrf_001" },
    outcome: "success",
    at: minutes(7),
  },
  {
    label: "e10",
    actor: BRUNO,
    action: "lookup.cpf",
    target: { type: "cpf", cpf: CPF_A },
    purpose: "review",
    outcome: "success",
    at: minutes(9),
  },
  { label: "e11", actor: ANA, action: "media.view", target: { type: "verification", id: "vrf_001" }, outcome: "success", at: minutes(9) },
  {
    label: "e12",
    actor: BRUNO,
    action: "integration.create",
    target: { type: "integration_key", id: "key-label" },
    outcome: "success",
    at: minutes(10),
  },
];

export interface SeededTrail {
  handle: TestDatabase;
  /** Each event's id by its label, and back. */
  idOf: Map<string, number>;
  labelOf: Map<number, string>;
}

/** A database of its own holding EVENTS, and their ids by label. */
export async function seededTrail(open: TestDatabaseKind["open"]): Promise<SeededTrail> {
  const trail = { handle: await open(), idOf: new Map<string, number>(), labelOf: new Map<number, string>() };
  for (const { label, ...event } of EVENTS) {
    const { id } = await recordEvent(event, trail.handle.db);
    trail.idOf.set(label, id);
    trail.labelOf.set(id, label);
  }
  return trail;
}

/**
 * Call at the top of a describeEachDatabase body: one seeded trail for the suite, from its first beforeAll until
 * its last afterAll, with the test environment.
 */
export function trailSuite(open: TestDatabaseKind["open"]): { readonly trail: SeededTrail } {
  let trail: SeededTrail | undefined;
  beforeAll(async () => {
    stubTestEnvironment();
    trail = await seededTrail(open);
  });
  afterAll(async () => {
    await trail?.handle.dispose();
    vi.unstubAllEnvs();
  });
  return {
    get trail() {
      if (!trail) throw new Error("The suite's trail is not seeded yet (use it inside a test or a later beforeAll).");
      return trail;
    },
  };
}
