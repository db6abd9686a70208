import "server-only";

import { z } from "zod";

import { httpUrl, positiveInt } from "@/lib/config/fields";

/** Sign-in: second factors, password and passkeys, single sign-on. */
export const signInVariables = {
  // Second factors (lib/auth/server/factors.ts, docs/security.md#second-factors): who must have one. Unset: `privileged`
  // with the real service, `off` with the embedded sandbox (said at start-up).
  MFA_REQUIRED: z.enum(["all", "privileged", "off"], { message: "must be all, privileged or off" }).optional(),
  // `off` closes the password form: members sign in through single sign-on or a passkey only.
  PASSWORD_SIGN_IN: z.enum(["on", "off"], { message: "must be on or off" }).default("on"),
  // Whether a member who signs in through single sign-on only may add a passkey and sign in with it. Off: the
  // identity provider stays the one door (removing someone there ends their access here).
  SSO_ONLY_PASSKEYS: z.enum(["on", "off"], { message: "must be on or off" }).default("off"),
  // How long an invited member's one-time password works (it also works for one sign-in only).
  ONE_TIME_PASSWORD_HOURS: positiveInt.max(24 * 30).default(72),
  // How long a verified second factor counts as a fresh step-up for sensitive actions.
  STEP_UP_SECONDS: positiveInt.max(3600).default(300),
  // `amr` values of the identity provider's ID token that count as a second factor (comma-separated, e.g.
  // "mfa,hwk,otp"). Empty: a single sign-on member adds a local factor when the policy asks for one.
  OIDC_TRUSTED_AMR: z.string().default(""),
  // Single sign-on: all three, or none (a partial set is refused rather than silently ignored).
  OIDC_ISSUER: httpUrl.optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  // Accept an email the identity provider does not mark `email_verified: true`. Off by default: with it on,
  // anyone who can set their own email at the provider can take the staff account holding that email.
  OIDC_ALLOW_UNVERIFIED_EMAIL: z
    .enum(["true", "false", "1", "0"], { message: "must be true or false" })
    .default("false")
    .transform((value) => value === "true" || value === "1"),
};
