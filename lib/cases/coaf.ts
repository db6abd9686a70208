/*
 * Suspicious-activity reports to COAF (Lei 9.613/1998 art. 11), shared by the routes and the browser (no zod: the
 * routes' schemas are in ./suspicious-activity.ts): the grounds a report may cite (labels in messages/<locale>/coaf.json
 * `grounds.<code>`), the limits, the routes' answer, and the form's own checks, which name the field before anything
 * is sent. Only members holding `coaf.report` ever see any of it (art. 11 §2: the person is never told).
 */

export const COAF_GROUNDS = [
  "inconsistent_identity",
  "pep_without_justification",
  "restrictive_list_match",
  "document_fraud_signals",
  "third_party_operation",
  "incompatible_income",
  "other",
] as const;

export type CoafGround = (typeof COAF_GROUNDS)[number];

export const COAF_SUMMARY_MAX_CHARS = 8000;
export const COAF_MAX_OPERATIONS = 50;
export const COAF_PROTOCOL_MAX_CHARS = 60;

export interface SuspiciousActivityDto {
  id: string;
  status: "draft" | "filed";
  casePublicId: string;
  /** The person's document, masked (the case keeps no other form). */
  documentMasked: string | null;
  summary: string;
  grounds: CoafGround[];
  operations: Array<{ date: string; amount: number; description: string }>;
  openedAt: string;
  openedBy: string;
  /** From the case's decision (its opening while undecided) plus COAF_REPORT_DEADLINE_DAYS. */
  deadline: string;
  /** Not filed and past its deadline. */
  overdue: boolean;
  protocol: string | null;
  filedAt: string | null;
}

/** GET /api/suspicious-activity. */
export interface SuspiciousActivityListResponse {
  reports: SuspiciousActivityDto[];
  deadlineDays: number;
}

/** One operation as the form holds it: the amount still as typed. */
export interface OperationDraft {
  date: string;
  amount: string;
  description: string;
}

export type OperationField = "date" | "amount" | "description";

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** What is wrong with an operation as typed, field by field (an empty object: nothing). */
export function operationProblems(operation: OperationDraft): Partial<Record<OperationField, true>> {
  const problems: Partial<Record<OperationField, true>> = {};
  if (!DATE.test(operation.date) || Number.isNaN(Date.parse(`${operation.date}T00:00:00Z`))) problems.date = true;
  const amount = Number(operation.amount.replace(",", "."));
  if (operation.amount.trim() === "" || !Number.isFinite(amount) || amount < 0) problems.amount = true;
  if (operation.description.trim() === "") problems.description = true;
  return problems;
}

/** The amount as the route takes it (a number; a comma read as the decimal point). */
export function operationAmount(amount: string): number {
  return Number(amount.replace(",", "."));
}
