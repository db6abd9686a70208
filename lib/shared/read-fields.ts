/*
 * Reading a record of named values (a query string's parameters) with one reader per name, without zod:
 * the same functions run in the browser (URL state) and on the server (route queries). Shared by the
 * verification list's filters (./verifications.ts) and the audit log's (lib/audit-trail/filters.ts).
 */

/** One value read by a rule: the value, or why it was refused (the caller names the field). */
export type FieldRead<T> = { ok: true; value: T } | { ok: false; message: string };

export type FieldReader<T = unknown> = (raw: unknown) => FieldRead<T>;

export interface FieldProblem {
  field: string;
  message: string;
  /** `not_accepted`: a name no reader takes; `invalid`: a value its reader refused. */
  code: "not_accepted" | "invalid";
}

/**
 * Reads every key of `raw` with its reader. Strict: a key without a reader is a problem naming it, so a
 * misspelt or removed parameter is refused rather than ignored. Every problem is reported, not the first.
 */
export function readFields<T>(
  raw: Record<string, unknown>,
  readers: Record<string, FieldReader<T>>,
): { values: Record<string, T>; problems: FieldProblem[] } {
  const values: Record<string, T> = {};
  const problems: FieldProblem[] = [];
  for (const [field, input] of Object.entries(raw)) {
    const reader = Object.hasOwn(readers, field) ? readers[field] : undefined;
    const read = reader?.(input);
    if (!read) problems.push({ field, message: "is not accepted", code: "not_accepted" });
    else if (!read.ok) problems.push({ field, message: read.message, code: "invalid" });
    else values[field] = read.value;
  }
  return { values, problems };
}
