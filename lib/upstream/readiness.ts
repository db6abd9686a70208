import "server-only";

import { config, type Config } from "@/lib/config";
import { isUpstreamError } from "@/lib/upstream/errors";

import { CoreClient } from "./core";
import { PartnersClient } from "./partners";

/*
 * Readiness of the upstreams: each is probed with a cheap real call through its own client (core: the list
 * with per_page=1; partners: a login), so a 5xx, a malformed answer or a refused key counts as not ready,
 * not only an unreachable host. The reason is a word from a closed set: never an address, a credential or
 * the service's own message.
 */

export const PROBE_TIMEOUT_MS = 3000;

/** `behind`: the database lacks a migration this release ships (GET /api/health's `migrations` check). */
export type ProbeProblem = "unreachable" | "timeout" | "unavailable" | "malformed" | "refused" | "rejected" | "behind";
export type ProbeResult = { ok: boolean; ms: number; problem?: ProbeProblem };

export function probeProblem(error: unknown): ProbeProblem {
  if (!isUpstreamError(error)) {
    if (error instanceof Error && error.name === "MigrationsBehind") return "behind";
    return error instanceof Error && error.name === "TimeoutError" ? "timeout" : "unreachable";
  }
  switch (error.kind) {
    case "timeout":
      return "timeout";
    case "unavailable":
      // No status: the connection itself failed.
      return error.status === null ? "unreachable" : "unavailable";
    case "malformed":
      return "malformed";
    case "unauthorized":
    case "forbidden":
      return "refused";
    default:
      return "rejected";
  }
}

export async function timedProbe(run: () => Promise<unknown>): Promise<ProbeResult> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  try {
    await run();
    return { ok: true, ms: ms() };
  } catch (error) {
    return { ok: false, ms: ms(), problem: probeProblem(error) };
  }
}

/** One short attempt per probe: readiness answers quickly rather than waiting out the read deadline. */
function probeConfig(cfg: Config): Config {
  return { ...cfg, upstream: { ...cfg.upstream, timeoutMs: PROBE_TIMEOUT_MS, readRetries: 0, readDeadlineMs: PROBE_TIMEOUT_MS } };
}

export async function probeUpstreams(cfg: Config = config()): Promise<{ core: ProbeResult; partners: ProbeResult }> {
  const probe = probeConfig(cfg);
  const [core, partners] = await Promise.all([
    timedProbe(() => CoreClient.fromConfig(probe).listVerifications({ per_page: 1 })),
    timedProbe(() => PartnersClient.fromConfig(probe).probe()),
  ]);
  return { core, partners };
}
