import "server-only";

import { getToken, type JWT } from "next-auth/jwt";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";

import { config } from "@/lib/config";
import { getDatabaseHandle } from "@/lib/db/client";
import { parseCookieHeader } from "@/lib/shared/cookie-header";
import { AppError } from "@/lib/shared/errors";

import { safeCallbackPath } from "../callback-url";
import { hasPermission, type Permission } from "../permissions";
import { type StaffSession } from "../types";
import { sessionCookieName } from "./cookies";
import { sessionCacheFor } from "./session-cache";
import { decodeSessionToken } from "./session-token";

/*
 * The one authorisation check, called by every route handler (`requireUser`) and every server page
 * (`requirePageUser`). proxy.ts may redirect earlier, but only this decides.
 *
 * The session cookie is next-auth's encrypted JWT; it is decoded here directly (no Next request
 * scope needed, so handlers can be tested with a plain Request; the key derived once, lib/auth/server/session-token.ts)
 * and then its server-side session is checked through the instance's session cache, which every change
 * to a session or user empties on every instance (lib/auth/server/session-cache.ts), so a revoked, idle or
 * expired session, or a disabled user, is refused at once.
 */

export type { StaffSession } from "@/lib/auth/types";
export { hasPermission, type Permission } from "../permissions";

/**
 * What a route or page asks of the member: a permission (lib/auth/permissions.ts), or only a live session
 * (`signed_in`: the member's own password, the "not allowed" page, the shell).
 */
export type Access = Permission | "signed_in";

function allows(user: StaffSession, access: Access): boolean {
  return access === "signed_in" || hasPermission(user, access);
}

/** Header proxy.ts sets to the page's path and query, so a page can send the visitor back after sign-in. */
export const PATH_HEADER = "x-kyc-pathname";

/** The session cookie's decoded JWT (not yet checked against the server-side session), or null. */
export async function sessionToken(jar: Record<string, string>): Promise<(JWT & { sid: string; uid: string }) | null> {
  const token = await getToken({
    // getToken only reads `cookies` (and `headers` for a bearer token, which we do not accept).
    req: { cookies: jar, headers: {} } as unknown as Parameters<typeof getToken>[0]["req"],
    secret: config().secrets.nextAuth,
    cookieName: sessionCookieName(),
    decode: decodeSessionToken,
  });
  if (!token || typeof token.sid !== "string" || typeof token.uid !== "string") return null;
  return token as JWT & { sid: string; uid: string };
}

/** The live session behind these cookies, or null. */
export async function sessionFromCookies(jar: Record<string, string>): Promise<StaffSession | null> {
  const token = await sessionToken(jar);
  if (!token) return null;
  return sessionCacheFor(await getDatabaseHandle()).validate({ sessionId: token.sid, userId: token.uid });
}

/**
 * For route handlers: the signed-in user holding `access`, else throws AppError `unauthenticated` (401) or
 * `forbidden` (403), which `toErrorResponse` turns into JSON. A user who still has to replace a one-time
 * password is refused everywhere except the password change itself. The user carries their permissions
 * (`user.permissions`, asked with `hasPermission(user, "…")`), read with the session on this request.
 */
export async function requireUser(
  request: Request,
  access: Access,
  { allowPasswordChange = false }: { allowPasswordChange?: boolean } = {},
): Promise<StaffSession> {
  const user = await sessionFromCookies(parseCookieHeader(request.headers.get("cookie")));
  if (!user) throw new AppError("unauthenticated");
  if (user.mustChangePassword && !allowPasswordChange) {
    throw new AppError("forbidden", "Replace your one-time password before continuing.");
  }
  if (!allows(user, access)) throw new AppError("forbidden");
  return user;
}

/**
 * For server components: the signed-in user or null. Memoised per request (React `cache`), so the
 * layout and the page share one session lookup.
 */
export const currentPageUser = cache(async (): Promise<StaffSession | null> => {
  const jar = Object.fromEntries((await cookies()).getAll().map((cookie) => [cookie.name, cookie.value]));
  return sessionFromCookies(jar);
});

/**
 * For server pages (the page guard): the signed-in user holding `access`; otherwise redirects to the
 * sign-in page (coming back here afterwards), to the password change, or to the plain "not allowed" page.
 */
export async function requirePageUser(
  access: Access,
  { allowPasswordChange = false }: { allowPasswordChange?: boolean } = {},
): Promise<StaffSession> {
  const user = await currentPageUser();
  if (!user) {
    const path = (await headers()).get(PATH_HEADER);
    redirect(path ? `/sign-in?callbackUrl=${encodeURIComponent(safeCallbackPath(path))}` : "/sign-in");
  }
  if (user.mustChangePassword && !allowPasswordChange) redirect("/change-password");
  if (!allows(user, access)) redirect("/not-allowed");
  return user;
}
