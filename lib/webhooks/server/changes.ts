import "server-only";

import type { Database } from "@/lib/db/client";
import type { Verification } from "@/lib/upstream/model/verification";

/*
 * Shared contract 3: what other features learn from the service's webhooks. The processor
 * (lib/webhooks/server/processor.ts) calls every registered listener inside the transaction that records the
 * event, with that transaction as `db`: a listener's writes commit together with the event, and a
 * listener that throws rolls the event back so the delivery is retried later. Delivery is at least
 * once: a listener may see the same change twice and must be idempotent.
 *
 * This feature knows no listener: each consumer registers from its own module (lib/cases/server/register.ts),
 * and the entries where the processor runs import it: the receiving route (its kick) and instrumentation.ts
 * (the periodic sweep). So webhooks depends on nobody, and cases depends on webhooks.
 */

export interface VerificationChange {
  publicId: string;
  event: string;
  status: string | null;
  refId: string | null;
  occurredAt: Date;
  identityScore: number | null;
  fraudScore: number | null;
  decidedAt: Date | null;
  /**
   * The account the event came from (the examples' envelope), null when the payload does not say: the seam for
   * routing a change to its connection; nothing reads it yet.
   */
  tenantPublicId: string | null;
  deliveryId: string;
  /**
   * The verification as the event's connection read it while the event was routed to it (several live connections,
   * lib/webhooks/server/route-connection.ts), moments before; absent when the routing asked nothing. A listener that
   * needs the verification uses it rather than reading it again.
   */
  verification?: Verification;
}

export type VerificationChangeListener = (db: Database, change: VerificationChange) => Promise<void>;

// On globalThis so Next's dev reloads and separately bundled entries (instrumentation, route handlers)
// share one registry; a Set so registering the same function again is harmless.
const registry = globalThis as typeof globalThis & { __kycVerificationChangeListeners?: Set<VerificationChangeListener> };

/** Registers a listener; the returned function unregisters it (the same function registered twice is one listener). */
export function onVerificationChange(listener: VerificationChangeListener): () => void {
  const listeners = (registry.__kycVerificationChangeListeners ??= new Set());
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function verificationChangeListeners(): VerificationChangeListener[] {
  return [...(registry.__kycVerificationChangeListeners ?? [])];
}
