/*
 * Puts the instance back to serving between tests: not draining, no request counted, no hook (lib/runtime/lifecycle.ts
 * keeps its state in the process-wide slot `__kycLifecycle`). Jobs stop through their own API (`stopJobs`), and a
 * job started again after it runs anew.
 */
export function resetLifecycle(): void {
  const slot = (globalThis as { __kycLifecycle?: Record<string, unknown> }).__kycLifecycle;
  if (slot) Object.assign(slot, { draining: false, inFlight: 0, lastArrival: 0, idle: [], onDrain: [], onStop: [] });
}

/** Whether something (a graceful stop, lib/runtime/shutdown.ts) is waiting for the API requests in flight to end. */
export function awaitingRequests(): boolean {
  const slot = (globalThis as { __kycLifecycle?: { idle: unknown[] } }).__kycLifecycle;
  return (slot?.idle.length ?? 0) > 0;
}
