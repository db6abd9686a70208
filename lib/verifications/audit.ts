import "server-only";

import { ApiError } from "@/lib/api/errors";
import { record, type AuditDetails, type AuditOutcome, type AuditTarget } from "@/lib/audit";
import { clientAddress } from "@/lib/auth/address";
import { config } from "@/lib/config";
import { log } from "@/lib/log";
import { isUpstreamError } from "@/lib/upstream/http";

import { MediaTokenRefused } from "./media";

/*
 * Audit events of the verification review: `verification.list`, `verification.view`,
 * `verification.media` (tokens issued), `verification.image` (an image streamed) and
 * `verification.create`. Targets are public ids; details are counts, filter values and file keys, never
 * URLs, tokens or images. A success is recorded before the answer leaves; if that fails the answer is
 * refused. A failure is recorded too, best effort, and the original error is what the caller sees.
 */

export interface AuditContext {
  actor: { id: string; email: string };
  ip: string | null;
}

export function auditContext(user: { id: string; email: string }, headers: Headers): AuditContext {
  return { actor: { id: user.id, email: user.email }, ip: clientAddress(headers, config().trustedProxies) };
}

export interface AuditSpec<T> {
  action: string;
  target?: AuditTarget;
  details?: AuditDetails;
  /** Extra details taken from the result (counts). */
  detailsOf?: (result: T) => AuditDetails;
  /** Target known only from the result (creation). */
  targetOf?: (result: T) => AuditTarget | undefined;
  /** The CPF's keyed hash when the person is known before the call (a creation's typed CPF). */
  subjectCpfHash?: string;
  /** …or once the result is in (an unmasked document, a CPF remembered from a creation here). */
  subjectCpfHashOf?: (result: T) => string | undefined | Promise<string | undefined>;
  /** Releases what the result holds (an open image stream) when the answer is refused after all. */
  discard?: (result: T) => void;
}

export class AuditUnavailableError extends ApiError {
  constructor() {
    super(
      "internal",
      "The audit trail could not record this action, so it was not carried out. Try again; if it persists, tell an administrator.",
    );
  }
}

function failureOutcome(error: unknown): { outcome: AuditOutcome; reason: string } {
  if (error instanceof MediaTokenRefused) return { outcome: "denied", reason: `token_${error.problem}` };
  if (error instanceof ApiError) return { outcome: error.code === "forbidden" ? "denied" : "failure", reason: error.code };
  if (isUpstreamError(error)) return { outcome: "failure", reason: `upstream_${error.kind}` };
  return { outcome: "failure", reason: "internal" };
}

/** Runs `action`, records its outcome, and answers only once the success is on the trail. */
export async function audited<T>(context: AuditContext, spec: AuditSpec<T>, action: () => Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await action();
  } catch (error) {
    const { outcome, reason } = failureOutcome(error);
    try {
      await record({
        actor: context.actor,
        ip: context.ip,
        action: spec.action,
        target: spec.target,
        subjectCpfHash: spec.subjectCpfHash,
        outcome,
        details: { ...spec.details, reason },
      });
    } catch (auditError) {
      log.error("audit_failed", { action: spec.action, error: auditError });
    }
    throw error;
  }
  try {
    await record({
      actor: context.actor,
      ip: context.ip,
      action: spec.action,
      target: spec.target ?? spec.targetOf?.(result),
      subjectCpfHash: spec.subjectCpfHash ?? (await spec.subjectCpfHashOf?.(result)),
      outcome: "success",
      details: { ...spec.details, ...spec.detailsOf?.(result) },
    });
  } catch (auditError) {
    log.error("audit_failed", { action: spec.action, error: auditError });
    spec.discard?.(result);
    throw new AuditUnavailableError();
  }
  return result;
}
