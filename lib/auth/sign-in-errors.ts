// Shared by the sign-in page (server) and its form (client).

export type SignInError = { kind: "invalid" } | { kind: "locked"; minutes: number } | { kind: "accessDenied" } | { kind: "failed" };

/** Error code the credentials provider throws for a throttled sign-in: `locked:<minutes to wait>`. */
export const LOCKED_ERROR = "locked";

/**
 * Not an error: the marker the sign-in page puts on its one trip through next-auth to get a CSRF cookie,
 * so the form works without JavaScript (app/(auth)/sign-in/page.tsx).
 */
export const FORM_READY = "FormReady";

/** Reads next-auth's error code ("CredentialsSignin", "locked:15", "AccessDenied", …) into what the form says. */
export function signInErrorFrom(code: string | null | undefined): SignInError | null {
  if (!code || code === FORM_READY) return null;
  const locked = new RegExp(`^${LOCKED_ERROR}:(\\d+)$`).exec(code);
  if (locked) return { kind: "locked", minutes: Math.max(1, Number(locked[1])) };
  if (code === "CredentialsSignin") return { kind: "invalid" };
  if (code === "AccessDenied") return { kind: "accessDenied" };
  return { kind: "failed" };
}
