/**
 * Changes the address without a request, as Next's router follows it: `useSearchParams` and `usePathname` then hold
 * the new value, and Back and Forward walk through it (the lists' filters, sort and pages).
 *
 * The router learns of `history.pushState` and `replaceState` by wrapping them, in an effect of its own that runs
 * once the page has hydrated. A press that reaches a hydrated control before that effect has run changed the address
 * while the router, and so the page, kept the old one (a browser test saw the sort in the address and not in the
 * table). Until the router has wrapped them (the browser's own function is still in place), the change waits for it,
 * a few milliseconds at a time, for one second at most; then it is made as it is.
 */
export function changeAddress(url: string, how: "push" | "replace", waitedMs = 0): void {
  if (routerFollowsHistory() || waitedMs >= MAX_WAIT_MS) {
    if (how === "push") window.history.pushState(null, "", url);
    else window.history.replaceState(null, "", url);
    return;
  }
  setTimeout(() => changeAddress(url, how, waitedMs + STEP_MS), STEP_MS);
}

const STEP_MS = 10;
const MAX_WAIT_MS = 1_000;

/** False while `history.pushState` is still the browser's own (native) function: the router has not wrapped it yet. */
function routerFollowsHistory(): boolean {
  return !Function.prototype.toString.call(window.history.pushState).includes("[native code]");
}
