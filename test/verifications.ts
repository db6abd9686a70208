import "server-only";

import { loadConfig, type Config } from "@/lib/config";
import { CoreClient } from "@/lib/upstream/core";

/** Test helpers: a configuration and a core client aimed at a test sandbox, with any key or page parameter. */
export function testConfig(sandboxUrl: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    SANDBOX_URL: sandboxUrl,
    NEXTAUTH_SECRET: "n".repeat(40),
    MEDIA_SEAL_SECRET: "m".repeat(40),
    AUDIT_HASH_SECRET: "a".repeat(40),
    DATA_ENCRYPTION_SECRET: "d".repeat(40),
    UPSTREAM_READ_RETRIES: "0",
    UPSTREAM_TIMEOUT_MS: "1500",
    ...env,
  });
}

export function testCoreClient(cfg: Config, options: { apiKey?: string; pageParam?: string } = {}): CoreClient {
  return new CoreClient({
    baseUrl: cfg.core.url,
    apiKey: options.apiKey ?? cfg.core.apiKey,
    pageParam: options.pageParam ?? cfg.core.pageParam,
    maxPerPage: cfg.core.maxPerPage,
    timeoutMs: cfg.upstream.timeoutMs,
    readRetries: cfg.upstream.readRetries,
  });
}
