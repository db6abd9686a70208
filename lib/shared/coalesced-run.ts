/** A background job's state, kept in a process-wide slot: the run under way, and whether a kick came during it. */
export interface CoalescedRun {
  running: Promise<void> | null;
  again: boolean;
}

/**
 * Starts a run of `pass` unless one is under way; a kick during a run asks for one more pass when it ends, so a burst
 * of kicks costs few passes. A pass that throws ends the run and goes to `onError`. Resolves when the run ends.
 */
export function kickCoalesced(state: CoalescedRun, pass: () => Promise<unknown>, onError: (error: unknown) => void): Promise<void> {
  if (state.running) {
    state.again = true;
    return state.running;
  }
  state.running = (async () => {
    try {
      do {
        state.again = false;
        await pass();
      } while (state.again);
    } catch (error) {
      onError(error);
    } finally {
      state.running = null;
    }
  })();
  return state.running;
}
