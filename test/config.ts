import { vi } from "vitest";

import type { Config } from "@/lib/config";

/*
 * The process's configuration in tests. `config()` (lib/config/) parses the environment once and keeps
 * the result in the process-wide slot `globalThis.__kycConfig`; a test that changes the environment
 * empties the slot so the next call parses the changed environment.
 */

const processConfig = globalThis as typeof globalThis & { __kycConfig?: Config };

/** Makes the next `config()` read the environment again. */
export function rereadConfig(): void {
  processConfig.__kycConfig = undefined;
}

/** Sets environment variables for this test file (vi.stubEnv) and makes `config()` follow them. */
export function stubConfigEnv(values: Record<string, string>): void {
  for (const [name, value] of Object.entries(values)) vi.stubEnv(name, value);
  rereadConfig();
}

/** Undoes every stubbed variable (vi.unstubAllEnvs) and makes `config()` follow. */
export function restoreConfigEnv(): void {
  vi.unstubAllEnvs();
  rereadConfig();
}
