// Shared by the sign-in page (server) and its form (client).

export type SignInError = { kind: "invalid" } | { kind: "locked"; minutes: number } | { kind: "accessDenied" } | { kind: "failed" };

/** Error code the credentials provider throws for a throttled sign-in: `locked:<minutes to wait>`. */
export const LOCKED_ERROR = "locked";

/** Reads next-auth's error code ("CredentialsSignin", "locked:15", "AccessDenied", …) into what the form says. */
export function signInErrorFrom(code: string | null | undefined): SignInError | null {
  if (!code) return null;
  const locked = new RegExp(`^${LOCKED_ERROR}:(\\d+)$`).exec(code);
  if (locked) return { kind: "locked", minutes: Math.max(1, Number(locked[1])) };
  if (code === "CredentialsSignin") return { kind: "invalid" };
  if (code === "AccessDenied") return { kind: "accessDenied" };
  return { kind: "failed" };
}
