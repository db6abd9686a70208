import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/**
 * axe on a page that has settled: React has hydrated it and no CSS transition is running. axe reads the colours of
 * the moment, and a dialog's trigger (disabled until the page's code runs, then enabled) fades from its disabled shade
 * for 150 ms: caught mid-way it failed colour contrast, in two clean-clone runs, on whichever page axe reached first.
 */
export async function settledAxe(page: Page): Promise<AxeBuilder> {
  // Transitions and finite animations only: a spinner turns for ever, and waiting for it would never end.
  const settled = () =>
    document
      .getAnimations()
      .every((animation) => animation.playState !== "running" || animation.effect?.getComputedTiming().iterations === Infinity);
  await page.waitForFunction(() => {
    const hydrated = (element: Element) => Object.keys(element).some((key) => key.startsWith("__react"));
    const root = document.querySelector("h1") ?? document.body.firstElementChild;
    // Every button too: a part of the page in its own Suspense boundary hydrates after the heading, and its controls
    // drawn disabled until then (dialog triggers, submit buttons) change colour only when it does (one flaky run).
    return root !== null && hydrated(root) && [...document.querySelectorAll("button")].every(hydrated);
  });
  // A frame for what hydration set off (an enabled trigger's transition starts on the next style change).
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.waitForFunction(settled);
  // axe run in the page itself (axe.run), not its frame-by-frame run finished in a second, blank page: the dashboard
  // has no frames to reach, and that finish (the results serialised in chunks to a new page, then merged there) took
  // 15 of the 39 s axe spent on the case queue's 50 rows beside a parallel worker, where the test ran out of time.
  // A page with a frame would have it unchecked in this mode: it fails here instead, to be run the other way.
  if (page.frames().length > 1) throw new Error(`${page.url()} has frames, which axe's in-page run does not reach`);
  return new AxeBuilder({ page }).setLegacyMode();
}
