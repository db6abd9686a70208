import "@testing-library/jest-dom/vitest";

import { cleanup } from "@testing-library/react";
import { afterEach, vi } from "vitest";

/*
 * Set-up of every component test (*.test.tsx, jsdom; vitest.config.ts): next/navigation is the small double of
 * test/navigation.ts, the few browser features jsdom lacks are inert stand-ins, and after each test the tree is
 * unmounted and every stub (fetch, timers) restored, so no test leaves anything running for the next.
 */

vi.mock("next/navigation", () => import("./navigation"));

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
