import { NextResponse } from "next/server";

import { json, route } from "@/lib/api/route";
import { authCookies } from "@/lib/auth/server/cookies";
import { signOut } from "@/lib/auth/server/sign-out";
import { parseCookieHeader } from "@/lib/shared/cookie-header";

// POST /api/auth/sign-out – ends the session (and the provider's after single sign-on). A plain form post
// gets a 303 to the next page; the page's script asks for JSON and navigates itself. Public, so a stale
// or half-expired cookie can still be cleared; the kit's same-origin check keeps other sites from
// signing staff out. Clear-Site-Data makes the browser drop what it kept of the session too: cached pages
// and answers (a case, a person's data), and local and session storage. Not "cookies": browsers apply it to
// the whole registrable domain, so it would also sign the member out of the identity provider's pages (and any
// sibling site) mid-logout; the session cookie itself is cleared by name below.
const CLEAR_SITE_DATA = '"cache", "storage"';

export const POST = route({ permission: "public" }, async ({ db, request, context }) => {
  const location = await signOut(db, {
    cookies: parseCookieHeader(request.headers.get("cookie")),
    context,
    origin: new URL(request.url).origin,
  });
  const response = request.headers.get("accept")?.includes("application/json")
    ? json({ location })
    : new NextResponse(null, { status: 303, headers: { Location: location } });
  const { name, options } = authCookies().sessionToken;
  response.cookies.set(name, "", { ...options, maxAge: 0 });
  response.headers.set("Clear-Site-Data", CLEAR_SITE_DATA);
  return response;
});
