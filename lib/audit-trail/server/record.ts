import "server-only";

import { createHmac } from "node:crypto";

import { type AuditOutcome } from "@/lib/audit-trail/outcomes";
import type { RequestContext } from "@/lib/audit-trail/server/context";
import {
  appendChained,
  groupCommitterFor,
  type AppendedEvent,
  type ChainedFields,
  type ChainSigner,
} from "@/lib/audit-trail/server/group-commit";
import { config } from "@/lib/config";
import { getDb, type Database } from "@/lib/db/client";
import type { Key, KeyRing } from "@/lib/keys/ring";
import { isValidCpf, maskCpf as maskCpfForDisplay } from "@/lib/shared/cpf";
import { isPageViewId } from "@/lib/shared/page-view";
import { boundConnectionId } from "@/lib/upstream/account";

/*
 * The audit trail's writer. `recordEvent()` is awaited before a response is sent; when it throws, the caller
 * must refuse its action (an unrecorded sensitive action is worse than a refused one). Pass the caller's
 * transaction to make the action and its record commit together.
 *
 * Each event is chained to the previous one: hash = HMAC(key, previous hash + this event's fields), under the
 * audit ring's current key (AUDIT_HASH_SECRET, lib/keys/ring.ts), whose id the row keeps in `key_id`; the CPF hash
 * in `target_hash` is made under that same key. After a rotation the verifier checks each row with the key its
 * `key_id` names, and CPF searches look for the hash under every key of the ring (`cpfHashes`).
 * Writers take a transaction-scoped advisory lock first, so instances sharing one PostgreSQL append
 * in a single order and never fork the chain.
 *
 * Events never hold URLs, tokens, passwords, images or a raw CPF: `assertAuditable` refuses them.
 */

export { type AuditOutcome } from "@/lib/audit-trail/outcomes";

export interface AuditActor {
  id: string | null;
  email: string | null;
}

/** What the event is about. A CPF is given raw here and stored masked plus a keyed hash. */
export type AuditTarget = { type: "cpf"; cpf: string } | { type: string; id: string };

export type AuditDetails = Record<string, string | number | boolean | null>;

export interface AuditEvent {
  /** Who did it; null when nobody is signed in (a failed sign-in) or the system acted. */
  actor: AuditActor | null;
  /** `area.verb`, e.g. `auth.sign_in`, `staff.invite`, `lookup.cpf`. */
  action: string;
  target?: AuditTarget;
  /** The reason the user gave (CPF lookups), as typed. */
  purpose?: string;
  outcome: AuditOutcome;
  /** The request's client address (lib/shared/client-address.ts). */
  ip?: string | null;
  /** A few flat values: counts, codes, roles. */
  details?: AuditDetails;
  /**
   * `cpfHash()` of the person the event is about when the target is not the CPF itself (a verification
   * whose CPF is known here): stored as the target hash, so the audit page's CPF search finds the event.
   */
  subjectCpfHash?: string;
  /**
   * The page view (lib/shared/page-view.ts) the event was written in, from the request's context; stored as
   * the detail `pageView`, so it is chained like every other detail. Dropped when malformed or when the
   * details are full: it only groups events for reading.
   */
  pageView?: string;
  at?: Date;
  /** The connection it concerns; by default the one the work runs under (lib/upstream/account.ts), else none. */
  connection?: string | null;
}

export class AuditContentError extends Error {
  constructor(
    readonly field: string,
    reason: string,
  ) {
    super(`audit event refused: ${field} ${reason}`);
    this.name = "AuditContentError";
  }
}

export { AUDIT_CHAIN_LOCK_KEY, GENESIS_HASH, type ChainedFields, type ChainSigner } from "@/lib/audit-trail/server/group-commit";

const ACTION = /^[a-z][a-z_]*(\.[a-z][a-z_]*)+$/;
const TARGET_TYPE = /^[a-z][a-z_]*$/;
const MAX_TEXT = 500;
const MAX_DETAILS = 16;

// What must never reach the trail, whatever field it hides in.
const FORBIDDEN: Array<[RegExp, string]> = [
  [/\b[a-z][a-z0-9+.-]*:\/\/|^\/\/|\bwww\./i, "looks like a URL"],
  [/\bdata:[a-z]+\/[a-z0-9.+-]+[;,]/i, "looks like a data URI"],
  [/\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{6,}/i, "looks like a credential"],
  [/\beyJ[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]{2,}/, "looks like a JWT"],
  // Base64 images start with these (PNG, JPEG, GIF, WebP); any long base64 run is refused as well.
  [/(^|[^A-Za-z0-9+/])(iVBORw0KGgo|\/9j\/4|R0lGOD|UklGR)/, "looks like an image"],
  [/[A-Za-z0-9+/=_-]{120,}/, "looks like encoded data or a token"],
];
// CPF-shaped runs are refused only when their check digits hold, so a digit run inside an identifier
// (a UUID's last group can be eleven digits) is not mistaken for a CPF.
const CPF_SHAPED = /(?<!\d)\d{3}\.?\d{3}\.?\d{3}-?\d{2}(?!\d)/g;
// Integration key values and widget session ids are UUIDs. Free text has no reason to hold one;
// a target id may (staff ids, verification public ids), since the caller chooses it as an identifier.
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

function checkText(field: string, value: string, { allowUuid = false } = {}): void {
  if (value.length > MAX_TEXT) throw new AuditContentError(field, `is longer than ${MAX_TEXT} characters`);
  // An identifier that is exactly a UUID is only that: nothing else can hide in it.
  if (allowUuid && new RegExp(`^${UUID.source}$`, "i").test(value)) return;
  for (const [pattern, reason] of FORBIDDEN) {
    if (pattern.test(value)) throw new AuditContentError(field, reason);
  }
  if ([...value.matchAll(CPF_SHAPED)].some((match) => isValidCpf(match[0])))
    throw new AuditContentError(field, "looks like an unmasked CPF");
  if (!allowUuid && UUID.test(value)) throw new AuditContentError(field, "looks like a key (UUID)");
}

/** Throws AuditContentError when the event holds something the trail must not keep. */
export function assertAuditable(event: AuditEvent): void {
  if (!ACTION.test(event.action)) throw new AuditContentError("action", "must look like area.verb");
  if (event.actor?.email != null && (!EMAIL.test(event.actor.email) || event.actor.email.length > 254)) {
    throw new AuditContentError("actor.email", "is not an email address");
  }
  if (event.target) {
    if (!TARGET_TYPE.test(event.target.type)) throw new AuditContentError("target.type", "must be a lower-case word");
    if ("id" in event.target) checkText("target.id", event.target.id, { allowUuid: true });
  }
  if (event.purpose !== undefined) checkText("purpose", event.purpose);
  if (event.subjectCpfHash !== undefined && !/^[0-9a-f]{64}$/.test(event.subjectCpfHash)) {
    throw new AuditContentError("subjectCpfHash", "is not a CPF hash");
  }
  const entries = Object.entries(event.details ?? {});
  if (entries.length > MAX_DETAILS) throw new AuditContentError("details", `holds more than ${MAX_DETAILS} entries`);
  for (const [key, value] of entries) {
    if (!/^[A-Za-z][A-Za-z0-9_]{0,39}$/.test(key)) throw new AuditContentError("details", `key ${JSON.stringify(key)} is not a plain name`);
    if (typeof value === "string") checkText(`details.${key}`, value);
    else if (typeof value === "number" && !Number.isFinite(value)) throw new AuditContentError(`details.${key}`, "is not a finite number");
    else if (value !== null && typeof value !== "number" && typeof value !== "boolean") {
      throw new AuditContentError(`details.${key}`, "must be a string, number, boolean or null");
    }
  }
}

/**
 * A free-text value (a label, a host, a filter) for an event's details, or null when the trail would
 * refuse it (it looks like a URL, a CPF, a key…). For descriptive extras only: dropping a detail is
 * better than refusing the whole action, and the event still says who did what to which target.
 */
export function auditableDetail(value: string | null | undefined): string | null {
  if (!value) return null;
  return storable({ details: { value } }) ? value : null;
}

/** A target for an event, or undefined when the trail would refuse its id (the same rules as any target). */
export function auditableTarget(target: AuditTarget | undefined): AuditTarget | undefined {
  return target && storable({ target }) ? target : undefined;
}

/** Whether the trail would keep these parts of an event (the one probe behind the two helpers above). */
function storable(parts: Pick<AuditEvent, "details" | "target">): boolean {
  try {
    assertAuditable({ actor: null, action: "probe.value", outcome: "success", ...parts });
    return true;
  } catch (error) {
    if (error instanceof AuditContentError) return false;
    throw error;
  }
}

function cpfDigits(cpf: string): string {
  const digits = cpf.replace(/\D/g, "");
  if (digits.length !== 11) throw new AuditContentError("target.cpf", "is not 11 digits");
  return digits;
}

/** "52998224725" → "***.982.247-**": the middle six digits, as Brazilian services usually show it. */
export function maskCpf(cpf: string): string {
  return maskCpfForDisplay(cpfDigits(cpf));
}

/**
 * Keyed hash of a CPF under the audit ring's current key (new values: events, index entries), so an auditor can
 * find its events without the CPF being stored. Searches use `cpfHashes`.
 */
export function cpfHash(cpf: string, secret = config().secrets.auditHash.current.secret): string {
  return createHmac("sha256", secret)
    .update(`cpf:${cpfDigits(cpf)}`)
    .digest("hex");
}

/**
 * The keyed hashes a CPF may be stored under: one per key of the audit ring, newest first (events and index
 * entries keep the hash their key made), for every lookup by CPF. `cpfHash()` makes new ones.
 */
export function cpfHashes(cpf: string, ring: KeyRing = config().secrets.auditHash): string[] {
  return ring.keys.map((key) => cpfHash(cpf, key.secret));
}

/**
 * HMAC over the previous hash and the event's fields; a verifier recomputes it row by row. The connection, when the
 * event has one, is the array's last element; without one the array is as it always was, so events written before
 * connections existed verify unchanged.
 */
export function computeEventHash(prevHash: string, fields: ChainedFields, secret = config().secrets.auditHash.current.secret): string {
  // Sorted keys: jsonb does not keep the order the writer used.
  const details = Object.fromEntries(Object.entries(fields.details).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const payload = JSON.stringify([
    prevHash,
    fields.at.toISOString(),
    fields.actorId,
    fields.actorEmail,
    fields.action,
    fields.targetType,
    fields.target,
    fields.targetHash,
    fields.purpose,
    fields.outcome,
    fields.ip,
    details,
    ...(fields.connectionId ? [fields.connectionId] : []),
  ]);
  return createHmac("sha256", secret).update(`audit-chain-v1\n${payload}`).digest("hex");
}

/**
 * Writes one event; throws (and writes nothing) when it cannot. Without `tx` the event joins the process's
 * group commit (lib/audit-trail/server/group-commit.ts) and resolves once its batch is committed; with `tx` it is
 * written inside the caller's transaction and commits (or rolls back) with it.
 */
export async function recordEvent(event: AuditEvent, tx?: Database): Promise<AppendedEvent> {
  assertAuditable(event);
  const target = event.target;
  // The CPF hash is made under the key that chains the event (the ring's current key, fixed for the process's
  // life), so the row's key_id names the key of both.
  const key = config().secrets.auditHash.current;
  const fields: ChainedFields = {
    // Millisecond precision, so the stored timestamp reads back exactly and the hash still matches.
    at: new Date(Math.floor((event.at ?? new Date()).getTime())),
    actorId: event.actor?.id ?? null,
    actorEmail: event.actor?.email?.toLowerCase() ?? null,
    action: event.action,
    targetType: target?.type ?? null,
    target: target ? ("cpf" in target ? maskCpf(target.cpf) : target.id) : null,
    targetHash: target && "cpf" in target ? cpfHash(target.cpf, key.secret) : (event.subjectCpfHash ?? null),
    purpose: event.purpose ?? null,
    outcome: event.outcome,
    ip: event.ip ?? null,
    details: withPageView(event.details ?? {}, event.pageView),
    connectionId: event.connection === undefined ? (boundConnectionId() ?? null) : event.connection,
  };
  if (tx) {
    const [written] = await appendChained(tx, [fields], chainSigner(key));
    return written!;
  }
  return groupCommitterFor(await getDb(), () => chainSigner()).append(fields);
}

/**
 * Records that the request's member did `event.action` and it succeeded: the context's actor and address, outcome
 * "success". Pass the transaction as `tx` to make the record part of it.
 */
export function recordSuccess(
  context: Pick<RequestContext, "actor" | "ip">,
  event: Omit<AuditEvent, "actor" | "ip" | "outcome">,
  tx?: Database,
): Promise<AppendedEvent> {
  return recordEvent({ actor: context.actor, ...event, outcome: "success", ip: context.ip }, tx);
}

function withPageView(details: AuditDetails, pageView: string | undefined): AuditDetails {
  if (!isPageViewId(pageView) || "pageView" in details || Object.keys(details).length >= MAX_DETAILS) return details;
  return { ...details, pageView };
}

/** Chains events under `key`: its id is stored on each row, its secret makes the hash. */
export function chainSigner(key: Key = config().secrets.auditHash.current): ChainSigner {
  return { keyId: key.id, hashOf: (prevHash, fields) => computeEventHash(prevHash, fields, key.secret) };
}
