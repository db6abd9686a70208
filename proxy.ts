import { NextResponse, type NextRequest } from "next/server";

/*
 * Next 16's proxy (formerly middleware): redirects only. A page request without any session cookie goes
 * to the sign-in page early, coming back afterwards; everything else passes, and each page and route
 * handler still checks the session and role itself (lib/auth/require-role.ts).
 */

const SESSION_COOKIES = ["next-auth.session-token", "__Host-next-auth.session-token"];
const PATH_HEADER = "x-kyc-pathname";

export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const hasSession = request.cookies
    .getAll()
    .some((cookie) => SESSION_COOKIES.some((name) => cookie.name === name || cookie.name.startsWith(`${name}.`)));
  if (!hasSession) {
    const target = new URL("/sign-in", request.url);
    target.searchParams.set("callbackUrl", `${pathname}${search}`);
    return NextResponse.redirect(target);
  }
  // Tell the page where it is, so requirePageUser can send a visitor back here after signing in.
  const headers = new Headers(request.headers);
  headers.set(PATH_HEADER, `${pathname}${search}`);
  return NextResponse.next({ request: { headers } });
}

export const config = {
  // Pages only: API routes answer 401 JSON themselves; the sign-in pages and static files stay open.
  matcher: ["/((?!api/|_next/|sign-in|favicon.ico|robots.txt|.*\\.(?:svg|png|jpg|jpeg|gif|webp|ico|css|js|txt|woff2?)$).*)"],
};
