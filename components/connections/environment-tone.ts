import type { Environment } from "@/lib/connections/types";

/** An environment's colours wherever a connection is named: production in rose, sandbox in the sandbox banner's amber. */
export const ENVIRONMENT_TONE: Record<Environment, string> = {
  production: "bg-rose-100 text-rose-900 ring-rose-300",
  sandbox: "bg-amber-100 text-amber-900 ring-amber-300",
};
