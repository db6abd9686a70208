import "server-only";

import { getToken, type JWT } from "next-auth/jwt";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";

import { safeCallbackPath } from "@/lib/auth/callback-url";
import { hasPermission, type Permission } from "@/lib/auth/permissions";
import { type SessionStage, type StaffSession } from "@/lib/auth/types";
import { config } from "@/lib/config";
import { getDatabaseHandle } from "@/lib/db/client";
import { BACKGROUND_HEADER } from "@/lib/shared/api-client/background";
import { parseCookieHeader } from "@/lib/shared/cookie-header";
import { AppError } from "@/lib/shared/errors";

import { sessionCookieName } from "./cookies";
import { sessionCacheFor } from "./session-cache";
import { decodeSessionToken } from "./session-token";

/*
 * The one authorisation check, called by every route handler (`requireUser`) and every server page
 * (`requirePageUser`). proxy.ts may redirect earlier, but only this decides.
 *
 * The session cookie is next-auth's encrypted JWT; it is decoded here directly (no Next request
 * scope needed, so handlers can be tested with a plain Request) under any key of the NEXTAUTH_SECRET ring
 * (lib/auth/server/session-token.ts), and then its server-side session is checked through the instance's session cache, which every change
 * to a session or user empties on every instance (lib/auth/server/session-cache.ts), so a revoked, idle or
 * expired session, or a disabled user, is refused at once.
 */

export type { StaffSession } from "@/lib/auth/types";
export { hasPermission, type Permission } from "@/lib/auth/permissions";

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
    // getToken insists on a secret; the ring's decode below ignores it and tries every key of the ring.
    secret: config().secrets.nextAuth.current.secret,
    cookieName: sessionCookieName(),
    decode: (params) => decodeSessionToken(config().secrets.nextAuth, params),
  });
  if (!token || typeof token.sid !== "string" || typeof token.uid !== "string") return null;
  return token as JWT & { sid: string; uid: string };
}

/** The live session behind these cookies, or null. `active: false`: a background request (not the member's activity). */
export async function sessionFromCookies(jar: Record<string, string>, { active = true } = {}): Promise<StaffSession | null> {
  const token = await sessionToken(jar);
  if (!token) return null;
  return sessionCacheFor(await getDatabaseHandle()).validate({ sessionId: token.sid, userId: token.uid }, new Date(), { active });
}

/** What a caller may still do while its session is in one of these stages (by default: nothing). */
export interface StageOptions {
  during?: readonly SessionStage[];
  /** The request is background whatever its headers say (the live stream: EventSource cannot set headers). */
  background?: boolean;
}

const STAGE_REFUSALS: Record<SessionStage, AppError> = {
  second_factor: new AppError("unauthenticated", "Finish signing in with your second factor."),
  password_change: new AppError("forbidden", "Replace your one-time password before continuing."),
  enrolment: new AppError("forbidden", "Add a second factor to your account before continuing."),
};

const STAGE_PAGES: Record<SessionStage, (path: string | null) => string> = {
  second_factor: (path) => `/sign-in/verify${path ? `?callbackUrl=${encodeURIComponent(safeCallbackPath(path))}` : ""}`,
  password_change: () => "/change-password",
  enrolment: () => "/account?enrol=1",
};

/** Whether the session verified a second factor (or, without one, the password) recently enough for a sensitive action. */
export function stepUpFresh(user: StaffSession, now = Date.now()): boolean {
  return user.secondFactorAt !== null && now - user.secondFactorAt <= config().signIn.stepUpSeconds * 1000;
}

/** Refuses a sensitive action (401 `step_up_required`) unless a second factor was verified within STEP_UP_SECONDS. */
export function assertStepUp(user: StaffSession, now = Date.now()): void {
  if (!stepUpFresh(user, now)) throw new AppError("step_up_required");
}

/**
 * How long after its sign-in a session may add its member's first factor (or replace a one-time password)
 * without a step-up: the sign-in just made is the proof (see `assertCredentialChange`).
 */
export const SIGN_IN_GRACE_MS = 15 * 60_000;

/**
 * A change to the member's own credentials (adding or removing a second factor, replacing the password): a step-up
 * within STEP_UP_SECONDS, else 401 `step_up_required`, whenever the member has something to step up with. One
 * exception, bounded by SIGN_IN_GRACE_MS from the session's sign-in: a session still in a stage of that sign-in
 * (the required first enrolment, the one-time password's replacement; such a session can reach nothing but that
 * stage's routes) or of a member with neither a factor nor a password (single sign-on, nothing else to confirm
 * with). Enrolling never counts as a step-up, so a stolen session cannot mint a factor and with it a step-up.
 */
export function assertCredentialChange(user: StaffSession, now = Date.now()): void {
  if (stepUpFresh(user, now)) return;
  const inSignInStage = user.awaiting === "enrolment" || user.awaiting === "password_change";
  const nothingToConfirmWith = !user.hasSecondFactor && !user.hasPassword;
  if ((inSignInStage || nothingToConfirmWith) && now - user.signedInAt <= SIGN_IN_GRACE_MS) return;
  throw new AppError("step_up_required");
}

/**
 * For route handlers: the signed-in user holding `access`, else throws AppError `unauthenticated` (401) or
 * `forbidden` (403), which `toErrorResponse` turns into JSON. A session still in a stage of its sign-in (the
 * second factor, the one-time password's replacement, a required enrolment) is refused everywhere except
 * the routes of that stage (`during`). The user carries their permissions (`user.permissions`, asked with
 * `hasPermission(user, "…")`), read with the session on this request. A request marked as background
 * (BACKGROUND_HEADER) does not count as the member's activity.
 */
export async function requireUser(
  request: Request,
  access: Access,
  { during = [], background = false }: StageOptions = {},
): Promise<StaffSession> {
  const active = !background && request.headers.get(BACKGROUND_HEADER) !== "1";
  const user = await sessionFromCookies(parseCookieHeader(request.headers.get("cookie")), { active });
  if (!user) throw new AppError("unauthenticated");
  if (user.awaiting && !during.includes(user.awaiting)) throw STAGE_REFUSALS[user.awaiting];
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
export async function requirePageUser(access: Access, { during = [] }: StageOptions = {}): Promise<StaffSession> {
  const user = await currentPageUser();
  if (!user) {
    const path = (await headers()).get(PATH_HEADER);
    redirect(path ? `/sign-in?callbackUrl=${encodeURIComponent(safeCallbackPath(path))}` : "/sign-in");
  }
  if (user.awaiting && !during.includes(user.awaiting)) redirect(STAGE_PAGES[user.awaiting]((await headers()).get(PATH_HEADER)));
  if (!allows(user, access)) redirect("/not-allowed");
  return user;
}
