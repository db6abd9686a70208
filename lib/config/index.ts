import "server-only";

import { loadConfig } from "@/lib/config/load";
import type { Config } from "@/lib/config/types";

/*
 * The one place configuration is read. Two modes:
 *
 * - embedded (no upstream variable set): the sandbox on 127.0.0.1:4010 with its documented demo
 *   credentials, PGlite in `.data/`, secrets generated once into `.data/secrets.json`;
 * - service (CORE_URL or PARTNERS_URL set): every upstream variable and secret is required, and start-up
 *   stops with one message listing every problem.
 *
 * Variables marked ASSUMPTION stand for something the service contract does not show; each default is
 * what the sandbox implements, and docs/assumptions.md lists them all (the anchor after each marker).
 *
 * The variables' schemas are in schema*.ts (one per area), the rules across variables in checks.ts, the
 * reshaping into Config in parts.ts, embedded mode's generated secrets in secrets-file.ts, the loader in
 * load.ts. Callers import this module.
 */

export { SANDBOX_DEFAULTS } from "@/lib/config/defaults";
export { ConfigError, loadConfig } from "@/lib/config/load";
export { dataLocations, type DataLocations } from "@/lib/config/locations";
export { generatedSecretsFile } from "@/lib/config/secrets-file";
export type { Config, QuotaName, QuotaWindow } from "@/lib/config/types";
export { configWarnings } from "@/lib/config/warnings";

// The parsed configuration is process-wide state, on globalThis (`__kycConfig`) like the process database
// (lib/db/client.ts): Next bundles the start-up hook (instrumentation.ts) and the route handlers separately,
// and every bundle must read one configuration, parsed once. Emptying the slot makes the next call read the
// environment again; test support does so after stubbing variables (test/config.ts).
const processConfig = globalThis as typeof globalThis & { __kycConfig?: Config };

/** The process's configuration, parsed once. */
export function config(): Config {
  processConfig.__kycConfig ??= loadConfig();
  return processConfig.__kycConfig;
}
