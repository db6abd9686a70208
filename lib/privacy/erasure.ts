/*
 * Erasure on request (LGPD art. 18 IV and VI): the request's rules the form runs in the browser and the route
 * runs again (lib/privacy/validation.ts), and the shapes GET/POST /api/privacy/erasures answer. Shared: no server
 * imports, no zod.
 */

import { cpfDigits, isValidCpf } from "@/lib/shared/cpf";
import { hasUnsafeTextCharacters } from "@/lib/shared/safe-text";

export const MAX_ERASURE_REASON_LENGTH = 500;

export type ErasureReasonProblem = "required" | "too_long" | "invisible" | "cpf";

// Control characters other than newline and tab, as in case notes.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
// Digit runs shaped like a CPF (punctuated or not); only those whose check digits hold count as one.
const CPF_SHAPED = /(?<!\d)\d{3}\.?\d{3}\.?\d{3}-?\d{2}(?!\d)/g;

/**
 * Why the reason is refused, if it is. It is kept with the request and read by every member who may confirm:
 * plain text, and never the CPF itself (the request holds only its keyed hashes and masked form).
 */
export function erasureReasonProblem(input: string): ErasureReasonProblem | undefined {
  const value = input.trim();
  if (value === "") return "required";
  if (value.length > MAX_ERASURE_REASON_LENGTH) return "too_long";
  if (hasUnsafeTextCharacters(input) || CONTROL.test(input)) return "invisible";
  if ([...value.matchAll(CPF_SHAPED)].some((match) => isValidCpf(cpfDigits(match[0])))) return "cpf";
  return undefined;
}

export const ERASURE_STATES = ["pending", "confirmed", "cancelled"] as const;
export type ErasureState = (typeof ERASURE_STATES)[number];

/** What one confirmed erasure cleared or removed, per kind. */
export const ERASED_KINDS = [
  "case_texts",
  "outcome_comments",
  "person_names",
  "document_crops",
  "index_entries",
  "webhook_bodies",
  "screenings",
] as const;
export type ErasedKind = (typeof ERASED_KINDS)[number];

/** What an erasure keeps on purpose, each with its legal reason (docs/security.md#erasure). */
export const KEPT_KINDS = ["audit_trail", "case_decisions", "monitoring_alerts", "verification_events", "provider_data"] as const;
export type KeptKind = (typeof KEPT_KINDS)[number];

export interface ErasureResult {
  /** Verifications of the person the dashboard's index knew (by the keyed CPF hash). */
  verifications: number;
  /** Their cases, whose free text was cleared and which now carry `erased_at`. */
  cases: number;
  erased: Record<ErasedKind, number>;
  /** `count` where the dashboard can count it (the provider's data it cannot). */
  kept: Array<{ kind: KeptKind; count: number | null; reason: string }>;
}

export interface ErasureMember {
  id: string;
  name: string;
  email: string;
}

export interface ErasureDto {
  id: string;
  /** The CPF as masked for display ("***.982.247-**"); the CPF itself is never stored. */
  documentMasked: string;
  reason: string;
  state: ErasureState;
  requestedBy: ErasureMember;
  requestedAt: string;
  /** The caller asked for it: someone else must confirm it. */
  ownRequest: boolean;
  /** Who confirmed or cancelled it (the requester, when they withdrew it themselves), and when. */
  decidedBy: ErasureMember | null;
  decidedAt: string | null;
  result: ErasureResult | null;
}

/** GET /api/privacy/erasures: every request waiting for a second member, then the latest decided ones. */
export interface ErasureListResponse {
  pending: ErasureDto[];
  recent: ErasureDto[];
}

export interface ErasureResponse {
  erasure: ErasureDto;
}
