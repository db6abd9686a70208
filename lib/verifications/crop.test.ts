import { describe, expect, it } from "vitest";

import { boxFromDrag, containedRect, cropTransform, MIN_CROP, nudgeBox, parseCropBox } from "./crop";

describe("portrait crop", () => {
  it("accepts a box inside the picture and names the field of one that is not", () => {
    expect(parseCropBox({ x: 0.1, y: 0.2, w: 0.3, h: 0.4 })).toEqual({ ok: true, value: { x: 0.1, y: 0.2, w: 0.3, h: 0.4 } });
    expect(parseCropBox({ x: 0.8, y: 0, w: 0.3, h: 0.5 })).toMatchObject({ ok: false, problems: [{ field: "w" }] });
    expect(parseCropBox({ x: 0, y: 0.9, w: 0.3, h: 0.2 })).toMatchObject({ ok: false, problems: [{ field: "h" }] });
    expect(parseCropBox({ x: 0, y: 0, w: MIN_CROP / 2, h: 0.5 })).toMatchObject({ ok: false, problems: [{ field: "w" }] });
    expect(parseCropBox({ x: "0", y: -1, w: 0.5, h: 0.5 })).toMatchObject({ ok: false, problems: [{ field: "x" }, { field: "y" }] });
    expect(parseCropBox(null)).toMatchObject({ ok: false, problems: [{ field: "(input)" }] });
  });

  it("finds where a contained picture sits in its square frame", () => {
    // A 2:1 ID card in a 300 px frame: full width, 150 px high, centred vertically.
    expect(containedRect({ width: 1000, height: 500 }, 300)).toEqual({ left: 0, top: 75, width: 300, height: 150 });
  });

  it("turns a drag over the frame into picture fractions, whichever way it went, clipped to the picture", () => {
    const picture = containedRect({ width: 1000, height: 500 }, 300);
    expect(boxFromDrag({ x: 150, y: 150 }, { x: 30, y: 75 }, picture)).toEqual({ x: 0.1, y: 0, w: 0.4, h: 0.5 });
    // Dragging into the letterbox stops at the picture's edge.
    expect(boxFromDrag({ x: 0, y: 0 }, { x: 300, y: 300 }, picture)).toEqual({ x: 0, y: 0, w: 1, h: 1 });
  });

  it("shows the box filling the frame, centred", () => {
    const picture = containedRect({ width: 1000, height: 500 }, 300);
    const box = { x: 0.1, y: 0.2, w: 0.2, h: 0.4 }; // 60 × 60 px of the laid-out picture
    const { scale, x, y } = cropTransform(box, picture, 300);
    expect(scale).toBeCloseTo(5);
    // The box's corners land on the frame's corners.
    const left = picture.left + box.x * picture.width;
    const top = picture.top + box.y * picture.height;
    expect(left * scale + x).toBeCloseTo(0);
    expect(top * scale + y).toBeCloseTo(0);
    expect((left + 60) * scale + x).toBeCloseTo(300);
  });

  it("moves and resizes by keyboard steps without leaving the picture", () => {
    expect(nudgeBox({ x: 0.9, y: 0.5, w: 0.1, h: 0.1 }, { dx: 0.05 })).toEqual({ x: 0.9, y: 0.5, w: 0.1, h: 0.1 });
    expect(nudgeBox({ x: 0.2, y: 0.2, w: 0.1, h: 0.1 }, { dw: -0.2 })).toMatchObject({ w: MIN_CROP });
    const grown = nudgeBox({ x: 0.5, y: 0.5, w: 0.4, h: 0.4 }, { dw: 0.2 });
    expect(grown.w).toBeCloseTo(0.6);
    expect(grown.x).toBeCloseTo(0.4);
    expect(grown.x + grown.w).toBeLessThanOrEqual(1);
  });
});
