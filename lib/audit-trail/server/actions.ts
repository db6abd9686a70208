import "server-only";

import { log } from "@/lib/log";
import { AppError } from "@/lib/shared/errors";
import { isUpstreamError, type UpstreamError } from "@/lib/upstream/errors";

import type { RequestContext } from "./context";
import { assertAuditable, AuditContentError, recordEvent, type AuditDetails, type AuditEvent, type AuditTarget } from "./record";

/*
 * The one audited-action helper, used by every route handler and server page.
 *
 * - `audited` (reads, database-only actions whose record may follow them): runs the action, records its
 *   outcome, and answers only once a success is on the trail; if that record fails, the answer is refused.
 * - `auditedAction` (an upstream side effect: create a verification, send an SMS, start a KYC session,
 *   create an integration key): records the intent first, and without it makes no call; then runs the
 *   action and records its outcome naming the intent. If the outcome cannot be written, what happened
 *   upstream has happened: the answer still tells it (a created key is still shown once) and the trail
 *   keeps the intent without an outcome, which `npm run audit:verify` lists.
 *
 * Failures are recorded best effort (the caller sees the original error) with one reason vocabulary
 * (`failureOf`): an upstream error's kind (`timeout`, `unavailable`…), an AppError's code, or a reason an
 * error declares for itself (`AuditedFailure`), else `internal`.
 */

export interface AuditSpec<T> {
  /** `area.verb`, e.g. `verification.create`. */
  action: string;
  target?: AuditTarget;
  /** The reason the user gave (CPF lookups), as typed. */
  purpose?: string;
  details?: AuditDetails;
  /** Extra details taken from the result (counts, the created record's id). */
  detailsOf?: (result: T) => AuditDetails;
  /** Target known only from the result (creation). */
  targetOf?: (result: T) => AuditTarget | undefined;
  /** The CPF's keyed hash when the person is known before the call (the CPF typed at a creation). */
  subjectCpfHash?: string;
  /** …or once the result is in (an unmasked document, a CPF a creation here remembered). */
  subjectCpfHashOf?: (result: T) => string | undefined | Promise<string | undefined>;
  /** Releases what the result holds (an open image stream) when a read is refused after all. */
  discard?: (result: T) => void;
}

/** An error that says how its failure reads on the trail (a refused media token, a cooldown…). */
export interface AuditedFailure {
  readonly auditOutcome: "failure" | "denied";
  readonly auditReason: string;
}

function isAuditedFailure(error: unknown): error is AuditedFailure {
  return (
    typeof error === "object" &&
    error !== null &&
    typeof (error as Partial<AuditedFailure>).auditReason === "string" &&
    ((error as Partial<AuditedFailure>).auditOutcome === "failure" || (error as Partial<AuditedFailure>).auditOutcome === "denied")
  );
}

/** Upstream failures after which nobody knows whether the service acted (the request may have arrived). */
export function isOutcomeUnknown(error: unknown): error is UpstreamError {
  return isUpstreamError(error) && (error.kind === "timeout" || error.kind === "unavailable" || error.kind === "malformed");
}

/** The one failure vocabulary of the trail. */
export function failureOf(error: unknown): { outcome: "failure" | "denied"; reason: string } {
  if (isAuditedFailure(error)) return { outcome: error.auditOutcome, reason: error.auditReason };
  if (error instanceof AppError) {
    const denied = ["forbidden", "permission_not_held", "own_access", "cross_origin", "rate_limited"].includes(error.code);
    return { outcome: denied ? "denied" : "failure", reason: error.code };
  }
  if (isUpstreamError(error)) return { outcome: "failure", reason: error.kind };
  if (error instanceof AuditContentError) return { outcome: "failure", reason: "validation" };
  return { outcome: "failure", reason: "internal" };
}

export class AuditUnavailableError extends AppError {
  constructor(what: "action" | "read" = "action") {
    super(
      "internal",
      what === "action"
        ? "The audit trail could not record this action, so it was not carried out. Try again; if it persists, tell an administrator."
        : "The audit trail could not record this access, so nothing is shown. Try again; if it persists, tell an administrator.",
    );
  }
}

/** What the trail refuses to hold in a field the user typed (a URL, a CPF, a key) is that field's error. */
function contentError(error: AuditContentError): AppError {
  // `details.actor` is the filter `actor`; `target.id` or `target.cpf` is the target the user named.
  const field = error.field.replace(/^details\./, "").replace(/^target\..*$/, "target");
  return new AppError("validation", `Invalid input: ${field}: holds something the audit trail does not record (a URL, a token or a key).`, {
    fields: [field],
  });
}

/** The writer, replaceable by a caller (a test's failing double). */
export interface AuditDeps {
  recordEvent: (event: AuditEvent) => Promise<{ id: number }>;
}

const DEFAULT_DEPS: AuditDeps = { recordEvent: (event) => recordEvent(event) };

/** The event of a spec at one stage: intent, success (with what the result adds) or failure. */
async function eventOf<T>(
  context: RequestContext,
  spec: AuditSpec<T>,
  outcome: AuditEvent["outcome"],
  { result, details = {} }: { result?: { value: T }; details?: AuditDetails } = {},
): Promise<AuditEvent> {
  return {
    actor: context.actor,
    ip: context.ip,
    pageView: context.pageView,
    action: spec.action,
    target: spec.target ?? (result ? spec.targetOf?.(result.value) : undefined),
    purpose: spec.purpose,
    subjectCpfHash: spec.subjectCpfHash ?? (result ? await spec.subjectCpfHashOf?.(result.value) : undefined),
    outcome,
    details: { ...spec.details, ...(result ? spec.detailsOf?.(result.value) : undefined), ...details },
  };
}

async function recordFailure<T>(
  deps: AuditDeps,
  context: RequestContext,
  spec: AuditSpec<T>,
  error: unknown,
  extra: AuditDetails = {},
): Promise<void> {
  const { outcome, reason } = failureOf(error);
  try {
    await deps.recordEvent(await eventOf(context, spec, outcome, { details: { ...extra, reason } }));
  } catch (auditError) {
    log.error("audit_failed", { action: spec.action, error: auditError });
  }
}

/** Runs `fn`; when it throws, the failure (with `extraOf`'s details) is recorded before the error goes on. */
async function runRecordingFailure<T>(
  deps: AuditDeps,
  context: RequestContext,
  spec: AuditSpec<T>,
  fn: () => Promise<T>,
  extraOf: (error: unknown) => AuditDetails = () => ({}),
): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    await recordFailure(deps, context, spec, error, extraOf(error));
    throw error;
  }
}

/**
 * What the user typed into the spec (a purpose, a target, filter values) is checked before `fn` runs, so
 * a value the trail would refuse is a 400 naming the field before any upstream call.
 */
function assertSpecAuditable<T>(context: RequestContext, spec: AuditSpec<T>): void {
  try {
    assertAuditable({
      actor: context.actor,
      action: spec.action,
      target: spec.target,
      purpose: spec.purpose,
      details: spec.details,
      outcome: "intent",
    });
  } catch (error) {
    if (error instanceof AuditContentError) throw contentError(error);
    throw error;
  }
}

/**
 * The record an answer depends on (a read's success, an action's intent) was not written: content the trail
 * refuses is a validation error naming the field; anything else is logged and the caller is refused.
 */
function unrecorded<T>(spec: AuditSpec<T>, auditError: unknown, kind: "read" | "action"): never {
  if (auditError instanceof AuditContentError) throw contentError(auditError);
  log.error("audit_failed", { action: spec.action, error: auditError });
  throw new AuditUnavailableError(kind);
}

/** Runs `fn`, records its outcome, and answers only once the success is on the trail. */
export async function audited<T>(
  context: RequestContext,
  spec: AuditSpec<T>,
  fn: () => Promise<T>,
  deps: AuditDeps = DEFAULT_DEPS,
): Promise<T> {
  assertSpecAuditable(context, spec);
  const result = await runRecordingFailure(deps, context, spec, fn);
  try {
    await deps.recordEvent(await eventOf(context, spec, "success", { result: { value: result } }));
  } catch (auditError) {
    spec.discard?.(result);
    unrecorded(spec, auditError, "read");
  }
  return result;
}

/**
 * Records the intent, runs `fn` (the upstream call), records the outcome naming the intent. No intent
 * on the trail: `fn` is not called and the caller gets AuditUnavailableError (or a validation error
 * naming the field the trail refused).
 */
export async function auditedAction<T>(
  context: RequestContext,
  spec: AuditSpec<T>,
  fn: () => Promise<T>,
  deps: AuditDeps = DEFAULT_DEPS,
): Promise<T> {
  assertSpecAuditable(context, spec);
  let intent: number;
  try {
    intent = (await deps.recordEvent(await eventOf(context, spec, "intent"))).id;
  } catch (auditError) {
    unrecorded(spec, auditError, "action");
  }

  const result = await runRecordingFailure(deps, context, spec, fn, (error) => ({
    intent,
    ...(isOutcomeUnknown(error) ? { outcome_unknown: true } : {}),
  }));
  try {
    await deps.recordEvent(await eventOf(context, spec, "success", { result: { value: result }, details: { intent } }));
  } catch (auditError) {
    // The upstream acted: refusing the answer now would hide a created key or a sent code. The intent
    // stays on the trail without an outcome, which the audit report lists.
    log.error("audit_outcome_not_recorded", { action: spec.action, intent, error: auditError });
  }
  return result;
}
