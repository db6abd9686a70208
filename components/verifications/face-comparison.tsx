"use client";

import { useTranslations } from "next-intl";
import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from "react";

import { Button } from "@/components/ui/button";
import { FACEMATCH_VALID_SIMILARITY } from "@/lib/upstream/model/verification";
import { boxFromDrag, containedRect, cropTransform, nudgeBox, type CropBox, type Rect } from "@/lib/verifications/crop";
import { useHeldImages, useShownImage } from "@/lib/verifications/media-ahead";
import { useDocumentCrop, useSaveDocumentCrop, useVerificationMedia } from "@/lib/verifications/hooks";
import type { MediaItem } from "@/lib/verifications/types";
import { clampPan, INITIAL_VIEW as INITIAL, zoomAt, type View } from "@/lib/verifications/zoom";

import { ScoreBar } from "./score-bar";

/*
 * The selfie beside the document's face side, for the analyst's own facematch. One view state drives both
 * frames, so zooming or panning one moves the other the same way: the same point of each picture stays
 * under the same spot of its frame. Zoom keeps the point under the pointer still (wheel, double click) or
 * the frame's centre (buttons, keys). Pointer events and a CSS transform only: no zoom library.
 *
 * Images are the same sealed /api/media tokens the media viewer uses (same query, same cache entry), or the
 * pictures read ahead into memory while the analyst worked the previous case of the queue (lib/verifications/
 * media-ahead.ts): shown at once, and reported shown.
 *
 * The document's portrait crop (lib/verifications/crop.ts): a box drawn once per verification (pointer, or
 * arrows and Shift+arrows) and saved for everyone; shown filling the document's frame beneath the shared view,
 * so zooming compares face with face. "Show the whole document" sets it aside without clearing it.
 */

export const FACE_KEYS = ["selfie", "document_front"] as const;

const KEY_ZOOM = 1.25;
const KEY_PAN = 40;

type Available = Extract<MediaItem, { available: true }>;

const CROP_STEP = 0.01;
const DEFAULT_CROP: CropBox = { x: 0.05, y: 0.15, w: 0.35, h: 0.7 };

/** One frame's picture: from memory when it was read ahead (nothing while it arrives), else through its token. */
function Picture({
  publicId,
  item,
  alt,
  rotation,
  onFailed,
  onNaturalSize,
}: {
  publicId: string;
  item: Available;
  alt: string;
  rotation: number;
  onFailed: () => void;
  onNaturalSize?: ((size: { width: number; height: number }) => void) | undefined;
}) {
  const shown = useShownImage(publicId, item.key, item.src);
  if (!shown.src) return null;
  return (
    // eslint-disable-next-line @next/next/no-img-element -- next/image's optimiser would cache the image on disk
    <img
      src={shown.src}
      alt={alt}
      referrerPolicy="no-referrer"
      draggable={false}
      onError={() => {
        if (!shown.onFailed()) onFailed();
      }}
      onLoad={(event) => {
        shown.onShown();
        onNaturalSize?.({ width: event.currentTarget.naturalWidth, height: event.currentTarget.naturalHeight });
      }}
      className="h-full w-full object-contain select-none"
      style={{ transform: `rotate(${rotation}deg)` }}
    />
  );
}

function Frame({
  publicId,
  item,
  label,
  alt,
  view,
  frameRef,
  onFailed,
  inner,
  onNaturalSize,
  overlay,
}: {
  publicId: string;
  item: Available | undefined;
  label: string;
  alt: string;
  view: View;
  frameRef?: React.Ref<HTMLDivElement>;
  onFailed: () => void;
  /** A transform under the shared view (the portrait crop), origin top-left. */
  inner?: { scale: number; x: number; y: number } | undefined;
  onNaturalSize?: (size: { width: number; height: number }) => void;
  overlay?: React.ReactNode;
}) {
  const t = useTranslations("verifications.faces");
  return (
    <figure className="flex min-w-0 flex-1 flex-col gap-1" data-face-frame={item?.key ?? "missing"}>
      <figcaption className="text-sm font-medium text-slate-800">{label}</figcaption>
      <div ref={frameRef} data-face-viewport className="relative aspect-square overflow-hidden rounded-md bg-slate-900">
        {item ? (
          // Pan and zoom on the wrapper (origin top-left, so the arithmetic in zoomAt holds); rotation on the
          // picture about its own centre, which a square frame keeps inside.
          <div
            className="pointer-events-none absolute inset-0"
            style={{ transform: `translate(${view.x}px, ${view.y}px) scale(${view.zoom})`, transformOrigin: "0 0" }}
            data-zoom={view.zoom.toFixed(2)}
            data-x={Math.round(view.x)}
            data-y={Math.round(view.y)}
          >
            <div
              className="absolute inset-0"
              data-crop-scale={inner ? inner.scale.toFixed(2) : undefined}
              style={
                inner ? { transform: `translate(${inner.x}px, ${inner.y}px) scale(${inner.scale})`, transformOrigin: "0 0" } : undefined
              }
            >
              <Picture
                publicId={publicId}
                item={item}
                alt={alt}
                rotation={view.rotation}
                onFailed={onFailed}
                onNaturalSize={onNaturalSize}
              />
            </div>
          </div>
        ) : (
          <p className="flex h-full items-center justify-center p-4 text-center text-sm text-slate-100">{t("missing")}</p>
        )}
        {overlay}
      </div>
    </figure>
  );
}

/**
 * Drawing the crop on the document's frame: drag a box over the picture, or move it with the arrows and resize
 * it with Shift+arrows. Pointer events stay here (the stage would pan otherwise).
 */
function CropEditor({ box, picture, onChange }: { box: CropBox; picture: Rect; onChange: (box: CropBox) => void }) {
  const t = useTranslations("verifications.faces");
  const start = useRef<{ x: number; y: number } | null>(null);
  const point = (event: PointerEvent<HTMLDivElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = CROP_STEP;
    const moves: Record<string, Parameters<typeof nudgeBox>[1]> = event.shiftKey
      ? { ArrowLeft: { dw: -step }, ArrowRight: { dw: step }, ArrowUp: { dh: -step }, ArrowDown: { dh: step } }
      : { ArrowLeft: { dx: -step }, ArrowRight: { dx: step }, ArrowUp: { dy: -step }, ArrowDown: { dy: step } };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    event.stopPropagation();
    onChange(nudgeBox(box, move));
  };
  return (
    <div
      className="absolute inset-0 cursor-crosshair touch-none"
      data-crop-editor
      onPointerDown={(event) => {
        event.stopPropagation();
        start.current = point(event);
        event.currentTarget.setPointerCapture(event.pointerId);
      }}
      onPointerMove={(event) => {
        event.stopPropagation();
        if (start.current) onChange(boxFromDrag(start.current, point(event), picture));
      }}
      onPointerUp={(event) => {
        event.stopPropagation();
        start.current = null;
      }}
      onDoubleClick={(event) => event.stopPropagation()}
    >
      <div
        role="group"
        tabIndex={0}
        aria-label={t("cropBox")}
        aria-describedby="faces-crop-hint"
        onKeyDown={onKeyDown}
        data-crop-box={`${box.x.toFixed(3)},${box.y.toFixed(3)},${box.w.toFixed(3)},${box.h.toFixed(3)}`}
        className="absolute border-2 border-amber-400 shadow-[0_0_0_9999px_rgba(15,23,42,0.55)] outline-offset-2"
        style={{
          left: picture.left + box.x * picture.width,
          top: picture.top + box.y * picture.height,
          width: box.w * picture.width,
          height: box.h * picture.height,
        }}
      />
    </div>
  );
}

/** `canCrop`: the member holds verifications.crop (draws or clears the portrait crop); otherwise the crop is only shown. */
export function FaceComparison({ publicId, similarity, canCrop = false }: { publicId: string; similarity?: number; canCrop?: boolean }) {
  const t = useTranslations("verifications.faces");
  const tStep = useTranslations("verifications.step");
  const tMedia = useTranslations("verifications.media");
  const media = useVerificationMedia(publicId);
  useHeldImages(publicId);
  const crop = useDocumentCrop(publicId);
  const saveCrop = useSaveDocumentCrop(publicId);
  const [natural, setNatural] = useState<{ width: number; height: number } | null>(null);
  const [frameSize, setFrameSize] = useState(0);
  const [showCrop, setShowCrop] = useState(true);
  const [draft, setDraft] = useState<CropBox | null>(null);
  const [view, setView] = useState<View>(INITIAL);
  const [failed, setFailed] = useState(false);
  const [fullScreen, setFullScreen] = useState(false);
  const container = useRef<HTMLElement>(null);
  const stage = useRef<HTMLDivElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const drag = useRef<{ id: number; x: number; y: number } | null>(null);

  const items = media.data?.items ?? [];
  const find = (key: string) => items.find((item): item is Available => item.key === key && item.available);
  const selfie = find("selfie");
  const documentFace = find("document_front");

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

  useEffect(() => {
    const onChange = () => setFullScreen(document.fullscreenElement === container.current && container.current !== null);
    document.addEventListener("fullscreenchange", onChange);
    return () => document.removeEventListener("fullscreenchange", onChange);
  }, []);

  // The frames change size on entering or leaving full screen: keep the same picture point centred.
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

  const toggleFullScreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void container.current?.requestFullscreen?.();
  };
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

  if (!media.data) return null;
  const valid = similarity !== undefined && similarity >= FACEMATCH_VALID_SIMILARITY;
  const frameWidth = frameSize;
  const picture = natural && frameWidth > 0 ? containedRect(natural, frameWidth) : null;
  const savedBox = crop.data?.crop?.box ?? null;
  const shownBox = draft ? null : showCrop ? savedBox : null;
  const inner = shownBox && picture ? cropTransform(shownBox, picture, frameWidth) : undefined;
  const startEditing = () => {
    setView(INITIAL);
    setDraft(savedBox ?? DEFAULT_CROP);
  };

  return (
    <section
      ref={container}
      aria-labelledby="faces-heading"
      data-fullscreen={fullScreen || undefined}
      className={`space-y-3 rounded-lg border border-slate-200 bg-white p-4 ${fullScreen ? "overflow-auto" : ""}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="faces-heading" className="text-lg font-semibold">
            {t("title")}
          </h2>
          <p id="faces-hint" className="text-sm text-slate-600">
            {t("hint")}
          </p>
        </div>
        <div className="w-full max-w-xs" data-face-similarity={similarity ?? ""}>
          {similarity !== undefined ? (
            <>
              <ScoreBar
                label={tStep("similarity")}
                value={similarity}
                max={100}
                unit=" %"
                tone={valid ? "good" : "bad"}
                threshold={{ value: FACEMATCH_VALID_SIMILARITY, label: tStep("threshold", { threshold: FACEMATCH_VALID_SIMILARITY }) }}
                emptyText="—"
              />
              <p className="mt-1 text-sm text-slate-800">
                {valid
                  ? tStep("aboveThreshold", { threshold: FACEMATCH_VALID_SIMILARITY })
                  : tStep("belowThreshold", { threshold: FACEMATCH_VALID_SIMILARITY })}
              </p>
            </>
          ) : (
            <p className="text-sm text-slate-700">{t("noSimilarity")}</p>
          )}
        </div>
      </div>

      {failed ? (
        <div className="flex items-center gap-3 text-sm text-slate-700">
          <p role="alert">{tMedia("loadFailed")}</p>
          <Button
            variant="secondary"
            onClick={() => {
              setFailed(false);
              void media.refetch();
            }}
          >
            {tMedia("reload")}
          </Button>
        </div>
      ) : null}

      <div
        ref={stage}
        role="group"
        tabIndex={0}
        aria-label={t("stage")}
        aria-describedby="faces-hint"
        onKeyDown={onKeyDown}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
        onDoubleClick={(event) => zoomBy(2, framePoint(event.clientX, event.clientY))}
        className={`flex cursor-grab touch-none gap-3 rounded-md outline-offset-2 active:cursor-grabbing ${fullScreen ? "mx-auto max-w-[min(100%,calc(200vh-16rem))]" : ""}`}
      >
        <Frame
          publicId={publicId}
          item={selfie}
          label={tMedia("selfie")}
          alt={tMedia("alt", { name: tMedia("selfie"), publicId })}
          view={view}
          frameRef={frame}
          onFailed={() => setFailed(true)}
        />
        <Frame
          publicId={publicId}
          item={documentFace}
          label={shownBox ? t("documentPortrait") : t("documentFace")}
          alt={tMedia("alt", { name: tMedia("document_front"), publicId })}
          view={draft ? INITIAL : view}
          onFailed={() => setFailed(true)}
          inner={inner}
          onNaturalSize={setNatural}
          overlay={draft && picture ? <CropEditor box={draft} picture={picture} onChange={setDraft} /> : null}
        />
      </div>

      <div className="flex flex-wrap items-center gap-1" role="toolbar" aria-label={t("controls")}>
        <Button
          variant="secondary"
          className="px-3 py-1"
          aria-label={tMedia("zoomOut")}
          title={tMedia("zoomOut")}
          onClick={() => zoomBy(1 / KEY_ZOOM)}
        >
          <span aria-hidden="true">−</span>
        </Button>
        <Button
          variant="secondary"
          className="px-3 py-1"
          aria-label={tMedia("zoomIn")}
          title={tMedia("zoomIn")}
          onClick={() => zoomBy(KEY_ZOOM)}
        >
          <span aria-hidden="true">+</span>
        </Button>
        <Button
          variant="secondary"
          className="px-3 py-1"
          aria-label={tMedia("rotateLeft")}
          title={tMedia("rotateLeft")}
          onClick={() => rotate(-90)}
        >
          <span aria-hidden="true">⟲</span>
        </Button>
        <Button
          variant="secondary"
          className="px-3 py-1"
          aria-label={tMedia("rotateRight")}
          title={tMedia("rotateRight")}
          onClick={() => rotate(90)}
        >
          <span aria-hidden="true">⟳</span>
        </Button>
        <Button variant="ghost" className="px-3 py-1" onClick={reset}>
          {tMedia("reset")}
        </Button>
        <Button variant="secondary" className="px-3 py-1" aria-pressed={fullScreen} onClick={toggleFullScreen}>
          {fullScreen ? t("exitFullScreen") : t("fullScreen")}
        </Button>
        <span className="ml-2 text-xs text-slate-600 tabular-nums" aria-live="polite">
          {tMedia("zoomLevel", { zoom: Math.round(view.zoom * 100), rotation: view.rotation })}
        </span>
      </div>

      {/* Shown once the document's picture is laid out: the crop is drawn on it, so there is nothing to offer before. */}
      {documentFace && picture ? (
        <div className="flex flex-wrap items-center gap-2 border-t border-slate-200 pt-3" role="toolbar" aria-label={t("cropControls")}>
          {draft ? (
            <>
              <p id="faces-crop-hint" className="w-full text-sm text-slate-700">
                {t("cropEditHint")}
              </p>
              <Button
                className="px-3 py-1"
                pending={saveCrop.isPending}
                onClick={() =>
                  saveCrop.mutate(draft, {
                    onSuccess: () => {
                      setDraft(null);
                      setShowCrop(true);
                    },
                  })
                }
              >
                {t("cropSave")}
              </Button>
              <Button variant="ghost" className="px-3 py-1" onClick={() => setDraft(null)}>
                {t("cropCancel")}
              </Button>
            </>
          ) : (
            <>
              {canCrop ? (
                <Button variant="secondary" className="px-3 py-1" onClick={startEditing}>
                  {savedBox ? t("cropChange") : t("cropStart")}
                </Button>
              ) : null}
              {savedBox ? (
                <>
                  <Button variant="secondary" className="px-3 py-1" aria-pressed={!showCrop} onClick={() => setShowCrop((shown) => !shown)}>
                    {showCrop ? t("cropShowWhole") : t("cropShowPortrait")}
                  </Button>
                  {canCrop ? (
                    <Button variant="ghost" className="px-3 py-1" pending={saveCrop.isPending} onClick={() => saveCrop.mutate(null)}>
                      {t("cropClear")}
                    </Button>
                  ) : null}
                </>
              ) : null}
            </>
          )}
          <span className="text-xs text-slate-600" aria-live="polite">
            {saveCrop.isError ? t("cropFailed") : saveCrop.isSuccess && !draft ? t("cropSaved") : ""}
          </span>
        </div>
      ) : null}
    </section>
  );
}
