/*
 * Titular requests on a clock (LGPD art. 18 and 19; ANPD resolution 18/2024): what a request is, the rules its form
 * runs in the browser and the routes run again (lib/privacy/validation.ts), the days it has left, and the shapes
 * /api/privacy/requests answers. Shared: no server imports, no zod.
 */

import { cpfDigits, isValidCpf } from "@/lib/shared/cpf";
import { hasUnsafeTextCharacters } from "@/lib/shared/safe-text";

/** What the titular asks for (LGPD art. 18: I–II access, III correction, IV and VI erasure, V portability, VII–VIII information; art. 18 § 2 objection). */
export const REQUEST_KINDS = ["access", "correction", "erasure", "portability", "information", "objection"] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];

/** How the request reached the company. */
export const REQUEST_CHANNELS = ["email", "web_form", "phone", "letter", "in_person", "other"] as const;
export type RequestChannel = (typeof REQUEST_CHANNELS)[number];

/** What a closed request was answered with: the titular report, an erasure, or a written answer alone. */
export const REQUEST_ANSWERS = ["report", "erasure", "written"] as const;
export type RequestAnswer = (typeof REQUEST_ANSWERS)[number];

export const REQUEST_STATES = ["open", "closed"] as const;
export type RequestState = (typeof REQUEST_STATES)[number];

export const MAX_CONTACT_LENGTH = 200;
export const MAX_ANSWER_LENGTH = 2000;

const DAY_MS = 86_400_000;
// Control characters other than newline and tab, as in case notes.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
// Digit runs shaped like a CPF (punctuated or not); only those whose check digits hold count as one.
const CPF_SHAPED = /(?<!\d)\d{3}\.?\d{3}\.?\d{3}-?\d{2}(?!\d)/g;

export type TextProblem = "required" | "too_long" | "invisible" | "cpf";

function holdsCpf(value: string): boolean {
  return [...value.matchAll(CPF_SHAPED)].some((match) => isValidCpf(cpfDigits(match[0])));
}

/** Why the titular's contact (an email, a phone, an address) is refused, if it is: one line, never a CPF. */
export function contactProblem(input: string): Exclude<TextProblem, "required"> | undefined {
  const value = input.trim();
  if (value.length > MAX_CONTACT_LENGTH) return "too_long";
  if (hasUnsafeTextCharacters(input) || CONTROL.test(input) || /[\r\n]/.test(value)) return "invisible";
  if (holdsCpf(value)) return "cpf";
  return undefined;
}

/** Why the written answer is refused, if it is: plain text, and never the CPF (the request keeps only its hashes). */
export function answerProblem(input: string): TextProblem | undefined {
  const value = input.trim();
  if (value === "") return "required";
  if (value.length > MAX_ANSWER_LENGTH) return "too_long";
  if (hasUnsafeTextCharacters(input) || CONTROL.test(input)) return "invisible";
  if (holdsCpf(value)) return "cpf";
  return undefined;
}

/**
 * The contact as the queue shows it to a member without `personal_data.unmasked`: an email keeps its first
 * character and its domain ("m***@example.com"), anything else its last four characters ("***5678").
 */
export function maskContact(contact: string): string {
  const value = contact.trim();
  const at = value.lastIndexOf("@");
  if (at > 0) return `${value[0]}***${value.slice(at)}`;
  return value.length <= 4 ? "***" : `***${value.slice(-4)}`;
}

/** When a request received at `receivedAt` is due: `dueDays` whole days later. */
export function dueAt(receivedAt: Date, dueDays: number): Date {
  return new Date(receivedAt.getTime() + dueDays * DAY_MS);
}

/**
 * Days left until `due`, rounded up: half a day left is 1, half a day late is 0, a day and a half late is -1. A request
 * is late once `now` is past `due` (isLate), whatever this says.
 */
export function daysLeft(due: Date, now: Date): number {
  return Math.ceil((due.getTime() - now.getTime()) / DAY_MS) || 0;
}

export function isLate(due: Date, now: Date): boolean {
  return now.getTime() > due.getTime();
}

export interface PrivacyRequestMember {
  id: string;
  name: string;
  email: string;
}

export interface PrivacyRequestDto {
  id: string;
  /** The CPF as masked for display ("***.982.247-**"); the CPF itself is never stored. */
  documentMasked: string;
  kind: RequestKind;
  channel: RequestChannel;
  /** The contact as given when the caller holds `personal_data.unmasked`, else masked; null when none was given. */
  contact: string | null;
  contactMasked: boolean;
  receivedAt: string;
  dueAt: string;
  daysLeft: number;
  late: boolean;
  state: RequestState;
  openedBy: PrivacyRequestMember;
  openedAt: string;
  /** When the privacy officers were told it is late (once), null before. */
  lateNotifiedAt: string | null;
  closedBy: PrivacyRequestMember | null;
  closedAt: string | null;
  sent: RequestAnswer | null;
  /** The written answer (what was sent), once closed. */
  answer: string | null;
  /** What the answer points at: the erasure request, or the report's audit event. */
  erasureId: string | null;
  reportEventId: number | null;
}

/** GET /api/privacy/requests: the open requests by days left (late first), then the latest closed ones. */
export interface PrivacyRequestListResponse {
  open: PrivacyRequestDto[];
  closed: PrivacyRequestDto[];
  dueDays: number;
}

export interface PrivacyRequestResponse {
  request: PrivacyRequestDto;
}
