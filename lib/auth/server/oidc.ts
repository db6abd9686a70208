import "server-only";

import { recordEvent } from "@/lib/audit-trail/server";
import { claimStaffForOidc } from "@/lib/auth/server/staff-oidc";
import { OIDC_ERROR, OIDC_UNDISCLOSED, type OidcRefusal } from "@/lib/auth/sign-in-errors";
import type { Database } from "@/lib/db/client";

/*
 * Single sign-on decisions, apart from next-auth's plumbing (lib/auth/server/options.ts):
 *
 * - which claims count: the ID token's, and when it carries no email, the userinfo endpoint's. A
 *   conformant provider in the code flow puts scope claims (email, email_verified, name) only in userinfo
 *   whenever it issues an access token, so reading the ID token alone refuses every sign-in there;
 * - who may enter: an email the provider released and marked `email_verified: true` (exactly the boolean;
 *   a missing claim or the string "false" is not verified), held by an active staff account that is bound to
 *   this subject or to none yet. Nothing is ever created.
 *
 * Each refusal has its own reason on the audit trail and on the sign-in page. An outsider learns nothing the
 * password path would not tell them: the claim-only reasons are decided before any account is looked up,
 * and the account-state reasons are shown only once the provider has vouched that the person owns the email.
 */

export type Claims = Record<string, unknown>;

export interface OidcIdentity {
  subject: string;
  /** Lower-cased, or null when the provider released none (or something that is not an email). */
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/**
 * The ID token's claims, completed from userinfo when the ID token has no email. The email and
 * email_verified always come from the same document, so a verification flag never vouches for another
 * source's address.
 */
export async function oidcClaims(idToken: Claims, userinfo: () => Promise<Claims>): Promise<Claims> {
  if (typeof idToken.email === "string" && idToken.email !== "") return idToken;
  const info = await userinfo();
  // OpenID Connect Core 5.3.2: a userinfo answer for another subject must not be used.
  if (info.sub !== idToken.sub) throw new Error("the userinfo answer is about another subject");
  return { ...idToken, email: info.email, email_verified: info.email_verified, name: idToken.name ?? info.name };
}

export function oidcIdentity(claims: Claims): OidcIdentity {
  const email = typeof claims.email === "string" ? claims.email.trim().toLowerCase() : "";
  return {
    subject: String(claims.sub ?? ""),
    email: EMAIL.test(email) ? email : null,
    emailVerified: claims.email_verified === true,
    name: typeof claims.name === "string" && claims.name.trim() ? claims.name.trim() : null,
  };
}

export type OidcAdmission =
  | { status: "admitted"; staff: { id: string; email: string; name: string; role: string } }
  | { status: "refused"; reason: OidcRefusal; error: string };

/**
 * Decides a single sign-on and records a refusal on the audit trail (the success is recorded with the
 * session it opens, lib/auth/server/sessions.ts). `error` is the code the sign-in page reads.
 */
export async function admitOidcSignIn(
  db: Database,
  identity: OidcIdentity,
  { allowUnverifiedEmail, ip }: { allowUnverifiedEmail: boolean; ip: string | null },
): Promise<OidcAdmission> {
  let reason: OidcRefusal | null = null;
  let claim: Awaited<ReturnType<typeof claimStaffForOidc>> | null = null;
  if (!identity.email) reason = "email_not_released";
  else if (!identity.emailVerified && !allowUnverifiedEmail) reason = "email_not_verified";
  else {
    claim = await claimStaffForOidc(db, { email: identity.email, subject: identity.subject });
    if (claim.status === "claimed") return { status: "admitted", staff: claim.staff };
    reason = claim.reason;
  }
  await recordEvent(
    {
      actor: { id: null, email: identity.email },
      action: "auth.sign_in",
      outcome: "failure",
      ip,
      details: { method: "oidc", reason, emailVerified: identity.emailVerified },
    },
    db,
  );
  // An email accepted unverified proves nobody owns it: say no more than the password path would.
  const disclosed = claim === null || identity.emailVerified;
  return { status: "refused", reason, error: `${OIDC_ERROR}:${disclosed ? reason : OIDC_UNDISCLOSED}` };
}
