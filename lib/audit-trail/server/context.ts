import "server-only";

import { config } from "@/lib/config";
import { clientAddress } from "@/lib/shared/client-address";
import { isPageViewId, newPageViewId, PAGE_VIEW_HEADER } from "@/lib/shared/page-view";

/** Who acted, from where: the one request-context type every audited action takes. */
export interface RequestContext {
  /** Null when nobody is signed in (a failed sign-in, a webhook) or the system acted. */
  actor: { id: string; email: string } | null;
  /** The request's client address (lib/shared/client-address.ts), behind the configured trusted proxies. */
  ip: string | null;
  /**
   * The page view this request belongs to (lib/shared/page-view.ts): the browser's when it sent a well-formed
   * one, else this request's own. Written into every event of the request as the detail `pageView`.
   */
  pageView?: string;
}

/**
 * The context of a request made by `user` (or by nobody). The page view is made when first read: a request that
 * writes no event (most public and many read routes) draws no random id (`npm run bench -- profile` showed the draw
 * as a fifth of the route kit's own CPU).
 */
export function requestContext(user: { id: string; email: string } | null, headers: Headers): RequestContext {
  let pageView: string | undefined;
  return {
    actor: user ? { id: user.id, email: user.email } : null,
    ip: clientAddress(headers, config().trustedProxies),
    get pageView() {
      pageView ??= pageViewOf(headers);
      return pageView;
    },
  };
}

/** The browser's page view id when well-formed, else a fresh one for this request alone. */
export function pageViewOf(headers: Headers): string {
  const sent = headers.get(PAGE_VIEW_HEADER);
  return isPageViewId(sent) ? sent : newPageViewId();
}
