/* Limits of the screening's settings, shared by the routes' schemas and the admin form. No server imports. */

/** The largest daily budget of upstream calls an admin may set. */
export const MAX_DAILY_BUDGET = 100_000;
/** The most people one run on demand may screen. */
export const MAX_RUN_LIMIT = 1_000;

/** The form's check of a typed budget: null when valid, else what is wrong. */
export function budgetProblem(text: string): "whole_number" | "too_large" | null {
  if (!/^\d{1,9}$/.test(text.trim())) return "whole_number";
  return Number(text.trim()) > MAX_DAILY_BUDGET ? "too_large" : null;
}

/** What an alert's `change` says, as a message key and its values: `pep`, `deceased`, `list` with the list's name. */
export function changeLabel(change: string): { key: "pep" | "deceased" | "list"; list?: string } {
  if (change.startsWith("list:")) return { key: "list", list: change.slice("list:".length) };
  return { key: change === "deceased" ? "deceased" : "pep" };
}
