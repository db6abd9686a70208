/*
 * The connection a page works under lives in its address: /c/{connection}/verifications/… (proxy.ts turns the
 * prefix into a request header and serves the page without it). So a copied link, a bookmark and two tabs on two
 * connections each keep their own. An address without the prefix works under the default connection. Shared by
 * the proxy, the links (components/ui/app-link.tsx) and the API client, which names the page's connection on every
 * call (`?connection=`).
 */

/** The connection seeded from the start-up variables: work that names none speaks as it. */
export const PRIMARY_CONNECTION = "primary";

const PREFIX = /^\/c\/([a-z0-9][a-z0-9-]{0,39})(?=\/|$|\?)/;

/** The connection an address names, or null. */
export function connectionOfPath(pathname: string): string | null {
  return PREFIX.exec(pathname)?.[1] ?? null;
}

/** The address without its connection prefix ("/" for the prefix alone). */
export function withoutConnection(pathname: string): string {
  const rest = pathname.replace(PREFIX, "");
  return rest === "" || rest.startsWith("?") ? `/${rest}` : rest;
}

/** Paths that are not the dashboard's pages under a connection: sign-in, API, Next's own, files. */
const OUTSIDE = /^\/(?:api|_next|sign-in|c)(?:\/|$|\?)/;

/** `href` under `connection` when it is a page of the dashboard and names none yet; anything else as it is. */
export function inConnection(href: string, connection: string | null): string {
  if (!connection || !href.startsWith("/") || href.startsWith("//") || OUTSIDE.test(href)) return href;
  return href === "/" ? `/c/${connection}` : `/c/${connection}${href}`;
}

/** An API address naming `connection` (its `connection` parameter), unless it names one already. */
export function apiInConnection(url: string, connection: string | null): string {
  if (!connection || !url.startsWith("/api/") || /[?&]connection=/.test(url)) return url;
  return `${url}${url.includes("?") ? "&" : "?"}connection=${encodeURIComponent(connection)}`;
}
