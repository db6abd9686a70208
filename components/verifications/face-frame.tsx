"use client";

import { useTranslations } from "next-intl";
import type { ReactNode, Ref } from "react";

import { useShownImage } from "@/lib/verifications/media-ahead";
import type { MediaItem } from "@/lib/verifications/types";
import type { View } from "@/lib/verifications/zoom";

import { useSettledImage } from "./use-settled-image";

/** A media item the analyst may see: the one kind a frame draws. */
export type AvailableMedia = Extract<MediaItem, { available: true }>;

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
  item: AvailableMedia;
  alt: string;
  rotation: number;
  onFailed: () => void;
  onNaturalSize?: ((size: { width: number; height: number }) => void) | undefined;
}) {
  const shown = useShownImage(publicId, item.key, item.src);
  const loaded = (image: HTMLImageElement) => {
    shown.onShown();
    onNaturalSize?.({ width: image.naturalWidth, height: image.naturalHeight });
  };
  const failed = () => {
    if (!shown.onFailed()) onFailed();
  };
  const ref = useSettledImage(loaded, failed);
  if (!shown.src) return null;
  return (
    // eslint-disable-next-line @next/next/no-img-element -- next/image's optimiser would cache the image on disk
    <img
      ref={ref}
      src={shown.src}
      alt={alt}
      referrerPolicy="no-referrer"
      draggable={false}
      onError={failed}
      onLoad={(event) => loaded(event.currentTarget)}
      className="h-full w-full object-contain select-none"
      style={{ transform: `rotate(${rotation}deg)` }}
    />
  );
}

/** One of the face comparison's two frames: its caption, and its picture under the shared view. */
export function FaceFrame({
  side,
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
  /** Which of the two frames: found by it whether or not its picture exists. */
  side: "selfie" | "document";
  publicId: string;
  item: AvailableMedia | undefined;
  label: string;
  alt: string;
  view: View;
  frameRef?: Ref<HTMLDivElement>;
  onFailed: () => void;
  /** A transform under the shared view (the portrait crop), origin top-left. */
  inner?: { scale: number; x: number; y: number } | undefined;
  onNaturalSize?: (size: { width: number; height: number }) => void;
  overlay?: ReactNode;
}) {
  const t = useTranslations("verifications.faces");
  return (
    <figure className="flex min-w-0 flex-1 flex-col gap-1" data-face-frame={item?.key ?? "missing"} data-face-side={side}>
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
