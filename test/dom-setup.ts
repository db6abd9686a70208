import "@testing-library/jest-dom/vitest";

import { cleanup, configure } from "@testing-library/react";
import { afterEach, vi } from "vitest";

/*
 * Set-up of every component test (*.test.tsx, jsdom; vitest.config.ts): next/navigation is the small double of
 * test/navigation.ts, the few browser features jsdom lacks are inert stand-ins, and after each test the tree is
 * unmounted and every stub (fetch, timers) restored, so no test leaves anything running for the next.
 */

vi.mock("next/navigation", () => import("./navigation"));

// How long findBy* and waitFor wait for what they look for (a bound, not a timing: they return as soon as it is
// there). Testing Library's 1 s ran out for a mocked fetch and a render on a 2-core machine running the whole suite.
configure({ asyncUtilTimeout: 5_000 });

// Pointer capture and scrolling: called by the zoom, the crop and the queue; jsdom has neither.
Element.prototype.setPointerCapture ??= function setPointerCapture() {};
Element.prototype.releasePointerCapture ??= function releasePointerCapture() {};
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.scrollIntoView ??= function scrollIntoView() {};

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
