import "server-only";

import { describeIssues, incompleteOidc, smtpProblems, widgetTokenProblems } from "@/lib/config/checks";
import { SANDBOX_DEFAULTS } from "@/lib/config/defaults";
import { corePart, partnersPart, sharedPart, signInPart, webhooksPart } from "@/lib/config/parts";
import { embeddedSchema, serviceSchema } from "@/lib/config/schema";
import { generatedSecrets } from "@/lib/config/secrets-file";
import type { Config, Env, Mode } from "@/lib/config/types";

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Upstream variables whose presence switches to service mode. */
const SERVICE_SWITCHES = ["CORE_URL", "PARTNERS_URL"] as const;

export function loadConfig(rawEnv: Env = process.env): Config {
  // An empty variable counts as unset, so `FOO=` in a .env file does not fail a `min(1)` check obscurely.
  const env: Env = Object.fromEntries(Object.entries(rawEnv).filter(([, value]) => value !== undefined && value !== ""));
  const mode: Mode = SERVICE_SWITCHES.some((name) => env[name]) ? "service" : "embedded";

  if (mode === "service") {
    const parsed = serviceSchema.safeParse(env);
    const problems = [...incompleteOidc(env), ...widgetTokenProblems(env), ...smtpProblems(env)];
    if (!parsed.success || problems.length) throw new ConfigError([...(parsed.success ? [] : describeIssues(parsed.error)), ...problems]);
    const values = parsed.data;
    return {
      ...sharedPart(values),
      mode,
      core: corePart(values, values.CORE_URL, values.CORE_API_KEY),
      partners: partnersPart(values, {
        url: values.PARTNERS_URL,
        username: values.PARTNERS_USERNAME,
        password: values.PARTNERS_PASSWORD,
        domain: values.PARTNERS_DOMAIN,
        integrationToken: values.PARTNERS_INTEGRATION_TOKEN,
        widgetIntegrationToken: values.PARTNERS_WIDGET_INTEGRATION_TOKEN,
      }),
      database: { url: values.DATABASE_URL, dataDir: values.DATA_DIR },
      secrets: {
        nextAuth: values.NEXTAUTH_SECRET,
        mediaSeal: values.MEDIA_SEAL_SECRET,
        auditHash: values.AUDIT_HASH_SECRET,
        dataEncryption: values.DATA_ENCRYPTION_SECRET,
      },
      webhooks: webhooksPart(values, values.WEBHOOK_SIGNING_SECRET),
      seedDemoAccounts: false,
      benchRoutes: false,
      signIn: signInPart(values, "privileged"),
    };
  }

  const parsed = embeddedSchema.safeParse(env);
  const problems = [...incompleteOidc(env), ...smtpProblems(env)];
  if (!parsed.success || problems.length) throw new ConfigError([...(parsed.success ? [] : describeIssues(parsed.error)), ...problems]);
  const values = parsed.data;
  const generated =
    values.NEXTAUTH_SECRET &&
    values.MEDIA_SEAL_SECRET &&
    values.AUDIT_HASH_SECRET &&
    values.DATA_ENCRYPTION_SECRET &&
    values.WEBHOOK_SIGNING_SECRET
      ? undefined
      : generatedSecrets(values.DATA_DIR);
  return {
    ...sharedPart(values),
    mode,
    core: corePart(values, `${values.SANDBOX_URL}/core`, values.CORE_API_KEY),
    partners: partnersPart(values, {
      url: `${values.SANDBOX_URL}/partners`,
      username: SANDBOX_DEFAULTS.partnersUsername,
      password: SANDBOX_DEFAULTS.partnersPassword,
      domain: SANDBOX_DEFAULTS.partnersDomain,
      integrationToken: SANDBOX_DEFAULTS.partnersIntegrationToken,
      widgetIntegrationToken: SANDBOX_DEFAULTS.partnersWidgetIntegrationToken,
    }),
    database: { url: values.DATABASE_URL, dataDir: values.DATA_DIR },
    secrets: {
      nextAuth: values.NEXTAUTH_SECRET ?? generated!.nextAuth,
      mediaSeal: values.MEDIA_SEAL_SECRET ?? generated!.mediaSeal,
      auditHash: values.AUDIT_HASH_SECRET ?? generated!.auditHash,
      dataEncryption: values.DATA_ENCRYPTION_SECRET ?? generated!.dataEncryption,
    },
    // scripts/run.mjs hands the same value to the sandbox, which signs its deliveries with it.
    webhooks: webhooksPart(values, values.WEBHOOK_SIGNING_SECRET ?? generated!.webhookSigning),
    seedDemoAccounts: true,
    benchRoutes: values.BENCH_ROUTES === "on",
    signIn: signInPart(values, "off"),
  };
}
