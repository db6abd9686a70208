import "server-only";

import type { z } from "zod";

import type { Env } from "@/lib/config/types";

/* Rules across variables, which one variable's schema cannot say, and the wording of every problem. */

/** SMTP_PLAINTEXT_LOOPBACK=on with an SMTP_URL whose host is not this machine. */
export function smtpProblems(env: Env): string[] {
  if (env.SMTP_PLAINTEXT_LOOPBACK !== "on" || !env.SMTP_URL) return [];
  let host = "";
  try {
    host = new URL(env.SMTP_URL).hostname;
  } catch {
    // SMTP_URL's own rule names it.
  }
  return /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i.test(host)
    ? []
    : ["SMTP_PLAINTEXT_LOOPBACK: may be on only when SMTP_URL's host is a loopback address (a test server on this machine)"];
}

const OIDC_VARIABLES = ["OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"] as const;

/** The OIDC variables that are missing while another one is set (all three, or none). */
export function incompleteOidc(env: Env): string[] {
  const missing = OIDC_VARIABLES.filter((name) => !env[name]);
  return missing.length === OIDC_VARIABLES.length ? [] : missing.map((name) => `${name}: is required when any OIDC_* variable is set`);
}

/**
 * The widget address reaches the person's phone with its token in the query string: with the real service a
 * dedicated token is required, never the one that also runs CPF lookups. (The unset case is the schema's
 * "is required"; this adds the equal case.)
 */
export function widgetTokenProblems(env: Env): string[] {
  const widget = env.PARTNERS_WIDGET_INTEGRATION_TOKEN;
  return widget !== undefined && widget === env.PARTNERS_INTEGRATION_TOKEN
    ? ["PARTNERS_WIDGET_INTEGRATION_TOKEN: must differ from PARTNERS_INTEGRATION_TOKEN (a dedicated integration for the widget address)"]
    : [];
}

export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const name = issue.path.join(".") || "(environment)";
    // A missing required variable reads better as "is required" than as zod's type message.
    const missing = issue.code === "invalid_type" && issue.input === undefined;
    return `${name}: ${missing ? "is required" : issue.message}`;
  });
}
