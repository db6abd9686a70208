import { describe, expect, it } from "vitest";

import { clampPan, INITIAL_VIEW, MAX_ZOOM, zoomAt } from "./zoom";

const SIZE = 400;
/** The picture point (in unzoomed frame pixels) under frame point p. */
const pictureAt = (view: { zoom: number; x: number; y: number }, px: number, py: number) => [
  (px - view.x) / view.zoom,
  (py - view.y) / view.zoom,
];

describe("face comparison zoom", () => {
  it("keeps the point under the pointer still while zooming in and out", () => {
    const first = zoomAt(INITIAL_VIEW, 2, 100, 300, SIZE);
    expect(pictureAt(first, 100, 300)).toEqual([100, 300]);
    const second = zoomAt(first, 3, 250, 50, SIZE);
    expect(pictureAt(second, 250, 50).map((value) => Math.round(value * 1000) / 1000)).toEqual(
      pictureAt(first, 250, 50).map((value) => Math.round(value * 1000) / 1000),
    );
  });

  it("stays between 1× and the maximum, and never pans the picture off the frame", () => {
    expect(zoomAt(INITIAL_VIEW, 0.2, 10, 10, SIZE)).toEqual(INITIAL_VIEW);
    expect(zoomAt(INITIAL_VIEW, 50, 200, 200, SIZE).zoom).toBe(MAX_ZOOM);
    expect(clampPan({ zoom: 2, x: 50, y: -900, rotation: 90 }, SIZE)).toEqual({ zoom: 2, x: 0, y: -400, rotation: 90 });
    // Zooming back out to 1× brings the picture home.
    expect(zoomAt({ zoom: 2, x: -300, y: -100, rotation: 0 }, 1, 0, 0, SIZE)).toMatchObject({ x: 0, y: 0 });
  });
});
