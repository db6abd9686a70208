// Saved views' rules the browser runs too (the "Save this view" dialog, the navigation's menu): no zod here, so
// nothing of zod reaches a page (e2e/client-bundle.spec.ts). The API's schema is lib/views/validation.ts.

export const VIEW_SCOPES = ["verifications", "cases"] as const;
export type ViewScope = (typeof VIEW_SCOPES)[number];
export const VIEW_NAME_MAX = 60;

/** Where each scope's page lives: a view opens as `<path>?<query>`. */
export const VIEW_PATHS: Record<ViewScope, string> = { verifications: "/verifications", cases: "/cases" };

/**
 * The query string a view keeps: the page's own, without the page number (a view is its filters and sort,
 * opened from its first page) and without a leading `?`.
 */
export function viewQueryOf(search: string): string {
  const params = new URLSearchParams(search.replace(/^\?/, ""));
  params.delete("page");
  return params.toString();
}
