/*
 * The document's portrait crop (components/verifications/face-comparison.tsx): a box the analyst draws once per
 * verification on the document's front, kept as fractions of the picture so it holds at any display size, and
 * used to show that box filling the frame, so synced zoom compares face with face. Pure, so it is tested
 * without a browser. Shared: no server imports.
 */

export interface CropBox {
  /** Left, top, width and height as fractions (0..1) of the picture's own width and height. */
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The smallest side a crop may have (a twentieth of the picture): anything smaller is a slip of the pointer. */
export const MIN_CROP = 0.05;

export type CropProblem = { field: "x" | "y" | "w" | "h" | "(input)"; message: string };

/** A crop box as the API and the form accept it: inside the picture, not degenerate. */
export function parseCropBox(input: unknown): { ok: true; value: CropBox } | { ok: false; problems: CropProblem[] } {
  if (typeof input !== "object" || input === null) return { ok: false, problems: [{ field: "(input)", message: "must be an object" }] };
  const raw = input as Record<string, unknown>;
  const problems: CropProblem[] = [];
  const read = (field: "x" | "y" | "w" | "h", min: number) => {
    const value = raw[field];
    if (typeof value !== "number" || !Number.isFinite(value) || value < min || value > 1) {
      problems.push({ field, message: `must be a number from ${min} to 1` });
      return 0;
    }
    return value;
  };
  const box = { x: read("x", 0), y: read("y", 0), w: read("w", MIN_CROP), h: read("h", MIN_CROP) };
  if (problems.length === 0 && box.x + box.w > 1 + 1e-9) problems.push({ field: "w", message: "goes past the picture's right edge" });
  if (problems.length === 0 && box.y + box.h > 1 + 1e-9) problems.push({ field: "h", message: "goes past the picture's bottom edge" });
  return problems.length ? { ok: false, problems } : { ok: true, value: box };
}

export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Where a picture of this natural size sits in a square frame of `size` px with `object-fit: contain`. */
export function containedRect(natural: { width: number; height: number }, size: number): Rect {
  const scale = Math.min(size / natural.width, size / natural.height);
  const width = natural.width * scale;
  const height = natural.height * scale;
  return { left: (size - width) / 2, top: (size - height) / 2, width, height };
}

/** The box, as picture fractions, that two frame points (a drag) enclose; clipped to the picture. */
export function boxFromDrag(start: { x: number; y: number }, end: { x: number; y: number }, picture: Rect): CropBox {
  const fx = (value: number) => Math.min(1, Math.max(0, (value - picture.left) / picture.width));
  const fy = (value: number) => Math.min(1, Math.max(0, (value - picture.top) / picture.height));
  const [x1, x2] = [fx(start.x), fx(end.x)].sort((a, b) => a - b) as [number, number];
  const [y1, y2] = [fy(start.y), fy(end.y)].sort((a, b) => a - b) as [number, number];
  return { x: x1, y: y1, w: x2 - x1, h: y2 - y1 };
}

/**
 * The CSS transform (origin top-left) that shows the crop box filling the square frame, centred, for a picture
 * laid out as `picture` inside it. Applied beneath the shared zoom, so both frames then zoom and pan alike.
 */
export function cropTransform(box: CropBox, picture: Rect, size: number): { scale: number; x: number; y: number } {
  const boxWidth = box.w * picture.width;
  const boxHeight = box.h * picture.height;
  const scale = Math.min(size / boxWidth, size / boxHeight);
  const left = picture.left + box.x * picture.width;
  const top = picture.top + box.y * picture.height;
  return { scale, x: (size - boxWidth * scale) / 2 - left * scale, y: (size - boxHeight * scale) / 2 - top * scale };
}

/** Moves or resizes a box by a step (keyboard editing), keeping it inside the picture and above the minimum size. */
export function nudgeBox(
  box: CropBox,
  { dx = 0, dy = 0, dw = 0, dh = 0 }: { dx?: number; dy?: number; dw?: number; dh?: number },
): CropBox {
  const w = Math.min(1, Math.max(MIN_CROP, box.w + dw));
  const h = Math.min(1, Math.max(MIN_CROP, box.h + dh));
  return { w, h, x: Math.min(1 - w, Math.max(0, box.x + dx)), y: Math.min(1 - h, Math.max(0, box.y + dy)) };
}
