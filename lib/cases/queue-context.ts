import type { QueueParams } from "./queue-requests";

/*
 * The queue a case was opened from (tab, filters, sort), carried in the case page's address as `cases=<query>`
 * so next, previous and "back to the queue" keep it, as the verification list's `list` parameter does.
 * Shared with the browser: no server imports.
 */

/** The queue parameters that define a queue's content and order (not its page). */
export const QUEUE_CONTEXT_KEYS = [
  "queue",
  "sort",
  "flag",
  "overdue",
  "age",
  "closed_from",
  "closed_to",
  "disagreement",
  "queue_id",
] as const;

export const CASES_PARAM = "cases";

/** The context of a queue view, as a query string (empty values left out). */
export function queueContextQuery(params: Partial<QueueParams>): string {
  const search = new URLSearchParams();
  for (const key of QUEUE_CONTEXT_KEYS) {
    const value = params[key];
    if (value !== undefined && value !== null && value !== "") search.set(key, String(value));
  }
  return search.toString();
}

/** Keeps only the context keys of a query string (anything else is dropped, never forwarded). */
export function cleanQueueContext(query: string): string {
  const source = new URLSearchParams(query);
  const search = new URLSearchParams();
  for (const key of QUEUE_CONTEXT_KEYS) {
    const value = source.get(key);
    if (value) search.set(key, value);
  }
  return search.toString();
}

/** A case page in the context of its queue. */
export function caseHref(publicId: string, context: string): string {
  const path = `/verifications/${encodeURIComponent(publicId)}`;
  return context ? `${path}?${new URLSearchParams({ [CASES_PARAM]: context }).toString()}` : path;
}

/** The queue itself, as the analyst left it. */
export function queueHref(context: string): string {
  return context ? `/cases?${context}` : "/cases";
}
