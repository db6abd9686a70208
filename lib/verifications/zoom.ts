/*
 * The face comparison's view arithmetic (components/verifications/face-comparison.tsx): one zoom and pan
 * applied to both square frames. Pure, so it is tested without a browser. Shared: no server imports.
 */

export const MIN_ZOOM = 1;
export const MAX_ZOOM = 8;

export interface View {
  zoom: number;
  /** Offset of the picture's top-left corner from the frame's, in CSS pixels, at this zoom. */
  x: number;
  y: number;
  /** Quarter turns, in degrees. */
  rotation: number;
}

export const INITIAL_VIEW: View = { zoom: 1, x: 0, y: 0, rotation: 0 };

/** Zoom to `next` keeping the frame point (px, py) over the same picture point; pan kept inside the frame. */
export function zoomAt(view: View, next: number, px: number, py: number, size: number): View {
  const zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, next));
  const ratio = zoom / view.zoom;
  return clampPan({ ...view, zoom, x: px - (px - view.x) * ratio, y: py - (py - view.y) * ratio }, size);
}

/** The picture always covers the frame once zoomed in: no panning off into emptiness. */
export function clampPan(view: View, size: number): View {
  const min = size - size * view.zoom;
  return { ...view, x: Math.min(0, Math.max(min, view.x)), y: Math.min(0, Math.max(min, view.y)) };
}
