/*
 * The page view an audited request belongs to, so the audit page can show the several events one page view
 * writes (opening a case: its case, verification, media… reads) as one group. Browser-safe: the browser keeps
 * one id per page (a new path is a new view) and sends it with every call to the dashboard's API; the server
 * adopts a well-formed one (lib/audit-trail/server/context.ts) or starts its own, and a server-rendered page
 * hands its id to the browser so the calls it makes next join its view.
 *
 * Only letters: the audit trail refuses digit runs that could be a CPF and anything shaped like a key, and an
 * id made of letters can be neither. It only groups rows for reading; it proves nothing (a member could
 * send any id, and the audit page groups only events of the same actor).
 */

export const PAGE_VIEW_HEADER = "x-page-view";
export const PAGE_VIEW_ID = /^[a-z]{20}$/;

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

export function newPageViewId(): string {
  // 20 letters from 32-bit draws (the modulo bias is irrelevant for a grouping hint): about 94 bits.
  const values = crypto.getRandomValues(new Uint32Array(20));
  return Array.from(values, (value) => LETTERS[value % LETTERS.length]).join("");
}

export function isPageViewId(value: unknown): value is string {
  return typeof value === "string" && PAGE_VIEW_ID.test(value);
}

let current: { path: string; id: string } | null = null;

function currentPath(): string {
  return typeof window === "undefined" ? "" : window.location.pathname;
}

/** The browser's current page view: the same id until the path changes. */
export function pageViewId(): string {
  const path = currentPath();
  if (current?.path !== path) current = { path, id: newPageViewId() };
  return current.id;
}

/**
 * A server-rendered page's own view id, so the browser's calls for that page join it. Browser only. The path is
 * the page's own (URL-encoded, as `location.pathname` reads): after a client-side navigation the new page
 * renders before the address bar changes.
 */
export function adoptPageView(id: string, path: string): void {
  if (typeof window === "undefined" || !isPageViewId(id)) return;
  current = { path, id };
}
