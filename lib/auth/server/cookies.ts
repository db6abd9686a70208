import "server-only";

import { config } from "@/lib/config";

/*
 * Cookie policy. In production (service mode, or a production build served over https) every auth
 * cookie is Secure and prefixed: `__Host-` where the cookie is host-only with Path=/, `__Secure-`
 * otherwise. All are HttpOnly and SameSite=Lax.
 */
export function secureCookiesWanted(): boolean {
  if (config().mode === "service") return true;
  return process.env.NODE_ENV === "production" && (config().publicUrl ?? "").startsWith("https://");
}

export const SESSION_COOKIE = "next-auth.session-token";
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

export function sessionCookieName(secure = secureCookiesWanted()): string {
  return secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
}

export function authCookies(secure = secureCookiesWanted()) {
  const options = { httpOnly: true, sameSite: "lax" as const, path: "/", secure };
  return {
    sessionToken: { name: sessionCookieName(secure), options },
    callbackUrl: { name: `${secure ? "__Secure-" : ""}next-auth.callback-url`, options },
    csrfToken: { name: `${secure ? "__Host-" : ""}next-auth.csrf-token`, options },
  };
}
