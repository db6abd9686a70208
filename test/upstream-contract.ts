import { describe, expect, it } from "vitest";

import { SANDBOX_DEFAULTS } from "@/lib/config";
import { CoreClient } from "@/lib/upstream/core";
import { UpstreamError } from "@/lib/upstream/errors";
import { PartnersClient } from "@/lib/upstream/partners";
import type { PartnersClientOptions } from "@/lib/upstream/partners-session";
import { rejection } from "@/test/rejection";
import { withSandbox, type SandboxHandle } from "@/test/sandbox";

/*
 * The upstream contract tests' set-up (lib/upstream/contract-*.test.ts): the real clients against the real
 * sandbox (its own process, real HTTP), and every log line the clients wrote.
 */

let current: SandboxHandle | undefined;

/** Starts the sandbox for the calling test file, clears its faults, clock and requests before each test. Returns the log lines. */
export function startContractSandbox(): string[] {
  const lines: string[] = [];
  current = withSandbox({ clear: "faults, clock and requests", log: (_level, line) => lines.push(line) });
  return lines;
}

/** The sandbox startContractSandbox started. */
export function sandbox(): SandboxHandle {
  if (!current) throw new Error("startContractSandbox() starts the sandbox first");
  return current;
}

export const LIST_PARAMS = ["status", "flow", "journey", "from", "to", "per_page", "page"];
export const OTHER_ACCOUNT_TOKEN = "7f3e2d1c-0b9a-4876-a5b4-c3d2e1f0a9b8";

export function core(apiKey: string = SANDBOX_DEFAULTS.coreApiKey, options: { readRetries?: number; timeoutMs?: number } = {}) {
  return new CoreClient({ baseUrl: `${sandbox().url}/core`, apiKey, pageParam: "page", maxPerPage: 100, retryBaseDelayMs: 10, ...options });
}

export function partners(options: Partial<PartnersClientOptions> = {}) {
  return new PartnersClient({
    baseUrl: `${sandbox().url}/partners`,
    username: SANDBOX_DEFAULTS.partnersUsername,
    password: SANDBOX_DEFAULTS.partnersPassword,
    domain: SANDBOX_DEFAULTS.partnersDomain,
    integrationToken: SANDBOX_DEFAULTS.partnersIntegrationToken,
    retryBaseDelayMs: 10,
    ...options,
  });
}

export function upstreamFailure(promise: Promise<unknown>): Promise<UpstreamError> {
  return rejection(promise, UpstreamError);
}

/** Requests the sandbox received whose path starts with `prefix`. */
export async function received(prefix: string) {
  return (await sandbox().requests()).filter((request) => request.path.startsWith(prefix));
}

/** A verification that has at least one file, with its files. */
export async function verificationWithFiles(client: CoreClient) {
  const { items } = await client.listVerifications({ status: ["approved"], per_page: 50 });
  for (const item of items) {
    const files = await client.getVerificationFiles(item.publicId);
    if (files.some((entry) => entry.file !== null)) return { item, files };
  }
  throw new Error("no approved verification with files in the sandbox");
}

/** The contract test file's last suite: nothing the clients logged over the file's real traffic holds a secret. */
export function describeRedactionOverRealTraffic(lines: readonly string[]): void {
  describe("redaction over real traffic", () => {
    it("never logged a key, password, token or signed URL parameter", () => {
      const logged = lines.join("\n");
      expect(lines.length).toBeGreaterThan(10);
      for (const secret of [
        SANDBOX_DEFAULTS.coreApiKey,
        "sbx_core_unmasked",
        SANDBOX_DEFAULTS.partnersPassword,
        SANDBOX_DEFAULTS.partnersIntegrationToken,
        "signature=",
        "eyJ",
      ]) {
        expect(logged).not.toContain(secret);
      }
    });
  });
}
