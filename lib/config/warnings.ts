import "server-only";

import type { Config } from "@/lib/config/types";

/** Settings that are valid but weaken a guarantee: start-up logs each one (instrumentation.ts). */
export function configWarnings(cfg: Config): string[] {
  const warnings: string[] = [];
  if (cfg.oidc?.allowUnverifiedEmail) {
    warnings.push(
      "OIDC_ALLOW_UNVERIFIED_EMAIL is on: single sign-on accepts emails the identity provider has not verified; " +
        "anyone able to set their own email there can use the staff account holding that email",
    );
  }
  if (cfg.mode === "service" && cfg.signIn.mfaRequired === "off") {
    warnings.push(
      "MFA_REQUIRED is off: members who see biometrics or unmasked data, or manage staff and keys, may sign in with a password alone",
    );
  }
  if (!cfg.signIn.passwordSignIn && !cfg.oidc) {
    warnings.push("PASSWORD_SIGN_IN is off and no single sign-on is configured: only members who already have a passkey can sign in");
  }
  if (!cfg.webhooks.signing) {
    warnings.push("WEBHOOK_SIGNING_SECRET is unset: every webhook delivery is refused (503) and nothing learns of changes at the service");
  }
  return warnings;
}
