"use client";

import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type RefObject } from "react";

import { clampPan, INITIAL_VIEW as INITIAL, zoomAt, type View } from "@/lib/verifications/zoom";

/*
 * The face comparison's shared view: one zoom, pan and rotation for both frames, driven by the wheel, a
 * double click, a drag, the keys on the stage and the toolbar's buttons. Zoom keeps the point under the
 * pointer still (wheel, double click) or the frame's centre (buttons, keys).
 */

export const KEY_ZOOM = 1.25;
const KEY_PAN = 40;

/** Whether `container` is the page's full-screen element, kept in step with the browser. */
function useFullScreen(container: RefObject<HTMLElement | null>) {
  const [fullScreen, setFullScreen] = useState(false);
  useEffect(() => {
    const onChange = () => setFullScreen(document.fullscreenElement === container.current && container.current !== null);
    document.addEventListener("fullscreenchange", onChange);
    return () => document.removeEventListener("fullscreenchange", onChange);
  }, [container]);
  const toggleFullScreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void container.current?.requestFullscreen?.();
  };
  return { fullScreen, toggleFullScreen };
}

/** The frame's width, followed as it changes; the frames change size on entering or leaving full screen. */
function useFrameSize(frame: RefObject<HTMLDivElement | null>, setView: (update: (current: View) => View) => void) {
  const [frameSize, setFrameSize] = useState(0);
  // Keep the same picture point centred when the frame changes size.
  const lastSize = useRef(0);
  useEffect(() => {
    const element = frame.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => {
      const next = element.clientWidth;
      setFrameSize(next);
      const previous = lastSize.current || next;
      lastSize.current = next;
      if (previous !== next)
        setView((current) => clampPan({ ...current, x: (current.x * next) / previous, y: (current.y * next) / previous }, next));
    });
    observer.observe(element);
    return () => observer.disconnect();
  });
  return frameSize;
}

export function useFaceView() {
  const [view, setView] = useState<View>(INITIAL);
  const container = useRef<HTMLElement>(null);
  const stage = useRef<HTMLDivElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const drag = useRef<{ id: number; x: number; y: number } | null>(null);
  const { fullScreen, toggleFullScreen } = useFullScreen(container);
  const frameSize = useFrameSize(frame, setView);

  const size = () => frame.current?.clientWidth ?? 1;
  /** Pointer position inside the frame under it (both frames have the same size and view, so either will do). */
  const framePoint = (clientX: number, clientY: number) => {
    const viewports = [...(stage.current?.querySelectorAll<HTMLElement>("[data-face-viewport]") ?? [])];
    const rects = viewports.map((viewport) => viewport.getBoundingClientRect());
    const rect = rects.find((r) => clientX >= r.left && clientX <= r.right && clientY >= r.top && clientY <= r.bottom) ?? rects[0];
    return rect ? { x: clientX - rect.left, y: clientY - rect.top } : undefined;
  };

  const zoomBy = useCallback((factor: number, point?: { x: number; y: number }) => {
    setView((current) => {
      const s = frame.current?.clientWidth ?? 1;
      return zoomAt(current, current.zoom * factor, point?.x ?? s / 2, point?.y ?? s / 2, s);
    });
  }, []);

  // Wheel zoom needs a non-passive listener to keep the page from scrolling under the pointer.
  useEffect(() => {
    const element = stage.current;
    if (!element) return;
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      zoomBy(event.deltaY < 0 ? KEY_ZOOM : 1 / KEY_ZOOM, framePoint(event.clientX, event.clientY));
    };
    element.addEventListener("wheel", onWheel, { passive: false });
    return () => element.removeEventListener("wheel", onWheel);
  });

  const rotate = (delta: number) => setView((current) => ({ ...current, rotation: (((current.rotation + delta) % 360) + 360) % 360 }));
  const pan = (dx: number, dy: number) => setView((current) => clampPan({ ...current, x: current.x + dx, y: current.y + dy }, size()));
  const reset = () => setView(INITIAL);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const actions: Record<string, () => void> = {
      "+": () => zoomBy(KEY_ZOOM),
      "=": () => zoomBy(KEY_ZOOM),
      "-": () => zoomBy(1 / KEY_ZOOM),
      ArrowLeft: () => pan(KEY_PAN, 0),
      ArrowRight: () => pan(-KEY_PAN, 0),
      ArrowUp: () => pan(0, KEY_PAN),
      ArrowDown: () => pan(0, -KEY_PAN),
      r: () => rotate(90),
      R: () => rotate(-90),
      "0": reset,
      f: toggleFullScreen,
      F: toggleFullScreen,
    };
    const action = actions[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    drag.current = { id: event.pointerId, x: event.clientX, y: event.clientY };
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const start = drag.current;
    if (!start || start.id !== event.pointerId) return;
    drag.current = { ...start, x: event.clientX, y: event.clientY };
    pan(event.clientX - start.x, event.clientY - start.y);
  };
  const endDrag = () => {
    drag.current = null;
  };

  return {
    view,
    frameSize,
    fullScreen,
    containerRef: container,
    stageRef: stage,
    frameRef: frame,
    zoomBy,
    rotate,
    reset,
    toggleFullScreen,
    /** Spread on the stage: keys, drag to pan, double click to zoom at the pointer. */
    stageHandlers: {
      onKeyDown,
      onPointerDown,
      onPointerMove,
      onPointerUp: endDrag,
      onPointerCancel: endDrag,
      onDoubleClick: (event: { clientX: number; clientY: number }) => zoomBy(2, framePoint(event.clientX, event.clientY)),
    },
  };
}
