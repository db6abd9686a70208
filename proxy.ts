import { randomUUID } from "node:crypto";

import { NextResponse, type NextRequest } from "next/server";

import { createNonce, NONCE_HEADER, pageContentSecurityPolicy } from "@/lib/api/csp";
import { decodablePath, malformedPathResponse } from "@/lib/api/malformed-path";
import { config as settings } from "@/lib/config";
import { connectionOfPath, withoutConnection } from "@/lib/shared/connection-path";

/*
 * Next 16's proxy (formerly middleware), for pages only. It gives every page response its own CSP nonce
 * (Next reads it from the request's CSP header and marks its scripts with it; the root layout reads it
 * too), and it redirects: a page request without any session cookie goes to the sign-in page early,
 * coming back afterwards. Each page and route handler still checks the session and role itself
 * (lib/auth/server/require-role.ts). The headers every answer carries are in next.config.mjs.
 *
 * It also runs for an API address holding a percent sign, only to refuse one whose percent-encoding does not decode
 * (400 JSON, lib/api/malformed-path.ts): Next would fail on it before the route kit and answer a bare 500.
 */

const SESSION_COOKIES = ["next-auth.session-token", "__Host-next-auth.session-token"];
const PATH_HEADER = "x-kyc-pathname";
const SIGNED_OUT_PAGES = ["/sign-in"];
/** The connection a page's address names (/c/{connection}/…), for the page to read (lib/connections/server/page.ts). */
const CONNECTION_HEADER = "x-kyc-connection";
/** Marks the connection header as this process's own (`{connection};{mark}`): a browser cannot forge it. */
const PROXY_MARK = randomUUID();

function carriedConnection(value: string | null): string | null {
  if (!value?.endsWith(`;${PROXY_MARK}`)) return null;
  return connectionOfPath(`/c/${value.slice(0, -PROXY_MARK.length - 1)}`);
}

export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (!decodablePath(pathname)) return malformedPathResponse();
  if (pathname.startsWith("/api/")) return NextResponse.next();
  // The second pass over a rewritten address (below) keeps the first pass's nonce and policy: the page must mark its
  // scripts with the nonce the answer's policy names.
  const carried = carriedConnection(request.headers.get(CONNECTION_HEADER));
  const nonce = (carried && request.headers.get(NONCE_HEADER)) || createNonce();
  const issuer = settings().oidc?.issuer;
  const csp =
    (carried && request.headers.get("Content-Security-Policy")) ||
    pageContentSecurityPolicy(nonce, {
      development: process.env.NODE_ENV === "development",
      formTargets: issuer ? [new URL(issuer).origin] : [],
    });
  const hasSession = request.cookies
    .getAll()
    .some((cookie) => SESSION_COOKIES.some((name) => cookie.name === name || cookie.name.startsWith(`${name}.`)));
  let response: NextResponse;
  if (!hasSession && !SIGNED_OUT_PAGES.includes(pathname)) {
    const target = new URL("/sign-in", request.url);
    target.searchParams.set("callbackUrl", `${pathname}${search}`);
    response = NextResponse.redirect(target);
  } else {
    const headers = new Headers(request.headers);
    // Tell the page where it is, so requirePageUser can send a visitor back here after signing in.
    headers.set(PATH_HEADER, `${pathname}${search}`);
    headers.set(NONCE_HEADER, nonce);
    headers.set("Content-Security-Policy", csp);
    // /c/{connection}/verifications is the page /verifications working under that connection: served without the
    // prefix, which the browser keeps in its address bar (and usePathname returns), the connection in a header. Next
    // runs the proxy again for the rewritten address: that second pass finds the header marked with this process's
    // token and keeps it, and the address the browser asked for; a header the browser sent is never so marked.
    if (carried) headers.set(PATH_HEADER, request.headers.get(PATH_HEADER) ?? `${pathname}${search}`);
    const connection = connectionOfPath(pathname);
    headers.delete(CONNECTION_HEADER);
    if (carried && !connection) {
      headers.set(CONNECTION_HEADER, `${carried};${PROXY_MARK}`);
      response = NextResponse.next({ request: { headers } });
    } else if (connection) {
      headers.set(CONNECTION_HEADER, `${connection};${PROXY_MARK}`);
      const target = request.nextUrl.clone();
      target.pathname = withoutConnection(pathname);
      response = NextResponse.rewrite(target, { request: { headers } });
    } else {
      response = NextResponse.next({ request: { headers } });
    }
  }
  response.headers.set("Content-Security-Policy", csp);
  return response;
}

export const config = {
  // Every page whatever its path, the sign-in page included: a path ending in .js, .css or .txt that no file
  // answers (GET /verifications/x.js) renders the dashboard's layout, so it must get the policy too. Only
  // what is never a page stays out: API routes (they answer 401 JSON themselves and carry their own policy
  // from next.config.mjs), Next's built assets, and the files in public/, named one by one (a file added
  // there is added here). proxy.test.ts checks which paths match.
  matcher: [
    "/((?!api/|_next/static/|_next/image$|favicon\\.ico$|icon-192\\.png$|icon-512\\.png$|manifest\\.webmanifest$|robots\\.txt$).*)",
    // An API address with a percent sign: refused here when it does not decode, passed on untouched otherwise.
    "/api/:path(.*%.*)",
  ],
};
