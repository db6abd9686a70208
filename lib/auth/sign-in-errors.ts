// Shared by the sign-in page (server) and its form (client).

/**
 * Why a single sign-on was refused, one reason per cause, as the audit trail records it. The first two are
 * decided from the provider's claims alone, before any account is looked up; the others describe the staff
 * account of an email the provider has verified, so they speak only to that email's owner.
 */
export const OIDC_REFUSALS = [
  "email_not_released",
  "email_not_verified",
  "unknown_account",
  "disabled",
  "account_bound_to_other_subject",
  "subject_bound_to_other_account",
] as const;
export type OidcRefusal = (typeof OIDC_REFUSALS)[number];

/** Shown instead of an account-state reason when the email was accepted unverified (OIDC_ALLOW_UNVERIFIED_EMAIL):
 * then nobody has proved they own it, so the page must not say whether a staff account holds it. */
export const OIDC_UNDISCLOSED = "no_account";

export type SignInError =
  | { kind: "invalid" }
  | { kind: "locked"; minutes: number }
  | { kind: "accessDenied" }
  | { kind: "failed" }
  | { kind: "oidc"; reason: OidcRefusal | typeof OIDC_UNDISCLOSED };

/** Error code the credentials provider throws for a throttled sign-in: `locked:<minutes to wait>`. */
export const LOCKED_ERROR = "locked";

/**
 * Not an error: the marker the sign-in page puts on its one trip through next-auth to get a CSRF cookie,
 * so the form works without JavaScript (app/(auth)/sign-in/page.tsx).
 */
export const FORM_READY = "FormReady";

/** Error code a refused single sign-on carries back to the sign-in page: `oidc:<reason>`. */
export const OIDC_ERROR = "oidc";

/** Reads next-auth's error code ("CredentialsSignin", "locked:15", "AccessDenied", "oidc:disabled", …) into what the form says. */
export function signInErrorFrom(code: string | null | undefined): SignInError | null {
  if (!code || code === FORM_READY) return null;
  const locked = new RegExp(`^${LOCKED_ERROR}:(\\d+)$`).exec(code);
  if (locked) return { kind: "locked", minutes: Math.max(1, Number(locked[1])) };
  if (code === "CredentialsSignin") return { kind: "invalid" };
  if (code === "AccessDenied") return { kind: "accessDenied" };
  const oidc = code.startsWith(`${OIDC_ERROR}:`) ? code.slice(OIDC_ERROR.length + 1) : null;
  if (oidc === OIDC_UNDISCLOSED) return { kind: "oidc", reason: OIDC_UNDISCLOSED };
  const reason = OIDC_REFUSALS.find((known) => known === oidc);
  if (reason) return { kind: "oidc", reason };
  return { kind: "failed" };
}
