"use client";

import { useTranslations } from "next-intl";
import { useState, type KeyboardEvent } from "react";

import { ApiErrorState } from "@/components/ui/error-state";
import { useVerificationMedia } from "@/lib/verifications/hooks";
import { useHeldImages, useShownImage } from "@/lib/verifications/media-ahead";
import type { MediaItem } from "@/lib/verifications/types";

import { MediaReload, ViewButtons } from "./media-controls";
import { useSettledImage } from "./use-settled-image";

/*
 * Selfie and document images side by side, each with zoom and rotation (buttons, or keys on the focused
 * image). Images are plain <img> elements pointing at the dashboard's /api/media/<token> route: never
 * next/image (its optimiser keeps a disk cache) and never the service's signed URL.
 *
 * Tokens are short-lived and refreshed by the query before they expire. An image that already loaded
 * keeps its picture (a new token would only download it again); one that failed or has not loaded yet
 * moves to the fresh token by itself. A picture read ahead (the queue's next case, lib/verifications/
 * media-ahead.ts) shows from memory, and is reported shown when it is.
 */

const MIN_ZOOM = 1;
const MAX_ZOOM = 4;
const ZOOM_STEP = 0.5;

function useFileName() {
  const t = useTranslations("verifications.media");
  return (key: string) => (["selfie", "document_front", "document_back"].includes(key) ? t(key as "selfie") : key);
}

function ImagePanel({
  item,
  publicId,
  onReload,
}: {
  item: Extract<MediaItem, { available: true }>;
  publicId: string;
  onReload: () => void;
}) {
  const t = useTranslations("verifications.media");
  const fileName = useFileName();
  const name = fileName(item.key);
  const [zoom, setZoom] = useState(MIN_ZOOM);
  const [rotation, setRotation] = useState(0);
  const [loadedSrc, setLoadedSrc] = useState<string>();
  const [failedSrc, setFailedSrc] = useState<string>();
  const shown = useShownImage(publicId, item.key, item.src);
  const src = loadedSrc ?? shown.src;
  const failed = src !== undefined && failedSrc === src;
  const loaded = () => {
    shown.onShown();
    setLoadedSrc(src);
  };
  const failedToLoad = () => {
    if (shown.onFailed()) setLoadedSrc(undefined);
    else setFailedSrc(src);
  };
  const settledRef = useSettledImage(loaded, failedToLoad);

  const zoomBy = (delta: number) => setZoom((current) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, current + delta)));
  const rotateBy = (delta: number) => setRotation((current) => (((current + delta) % 360) + 360) % 360);
  const reset = () => {
    setZoom(MIN_ZOOM);
    setRotation(0);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const actions: Record<string, () => void> = {
      "+": () => zoomBy(ZOOM_STEP),
      "=": () => zoomBy(ZOOM_STEP),
      "-": () => zoomBy(-ZOOM_STEP),
      r: () => rotateBy(90),
      R: () => rotateBy(-90),
      "0": reset,
    };
    const action = actions[event.key];
    if (action && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      action();
    }
  };

  return (
    <figure className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-3" data-media-key={item.key}>
      <figcaption className="flex items-center justify-between gap-2">
        <span className="font-medium">{name}</span>
        <span className="text-xs text-slate-600 tabular-nums" aria-live="polite">
          {t("zoomLevel", { zoom: Math.round(zoom * 100), rotation })}
        </span>
      </figcaption>
      {/* Square, so a quarter turn always fits; scrollable (arrow keys too) once zoomed in. */}
      <div
        role="group"
        tabIndex={0}
        aria-label={t("controls", { name })}
        onKeyDown={onKeyDown}
        className="relative aspect-square overflow-auto rounded-md bg-slate-100"
      >
        {failed ? (
          <MediaReload
            className="flex h-full flex-col items-center justify-center gap-3 p-4 text-center text-sm text-slate-700"
            onReload={() => {
              setLoadedSrc(undefined);
              onReload();
            }}
          />
        ) : (
          <div style={{ width: `${zoom * 100}%`, height: `${zoom * 100}%` }}>
            {src ? (
              // eslint-disable-next-line @next/next/no-img-element -- next/image's optimiser would cache the image on disk
              <img
                src={src}
                alt={t("alt", { name, publicId })}
                referrerPolicy="no-referrer"
                draggable={false}
                ref={settledRef}
                onLoad={loaded}
                onError={failedToLoad}
                className="h-full w-full object-contain transition-transform"
                style={{ transform: `rotate(${rotation}deg)` }}
              />
            ) : null}
          </div>
        )}
      </div>
      <div role="toolbar" aria-label={t("controls", { name })} className="flex flex-wrap gap-1">
        <ViewButtons zoomOut={() => zoomBy(-ZOOM_STEP)} zoomIn={() => zoomBy(ZOOM_STEP)} rotate={rotateBy} reset={reset} />
      </div>
    </figure>
  );
}

function MissingPanel({ item }: { item: Extract<MediaItem, { available: false }> }) {
  const t = useTranslations("verifications.media");
  const fileName = useFileName();
  return (
    <figure className="flex flex-col gap-2 rounded-lg border border-dashed border-slate-300 bg-white p-3" data-media-key={item.key}>
      <figcaption className="font-medium">{fileName(item.key)}</figcaption>
      <div className="flex aspect-square items-center justify-center rounded-md bg-slate-50 p-6 text-center text-sm text-slate-700">
        <p>{t(`missing.${item.reason}`)}</p>
      </div>
    </figure>
  );
}

/** `exclude`: file keys another section already shows (the face comparison's selfie and document face). */
export function MediaViewer({ publicId, exclude = [] }: { publicId: string; exclude?: readonly string[] }) {
  const t = useTranslations("verifications.media");
  const media = useVerificationMedia(publicId);
  useHeldImages(publicId);
  const reload = () => void media.refetch();

  return (
    <section aria-labelledby="media-heading" aria-busy={media.isFetching || undefined} className="space-y-3">
      <div>
        <h2 id="media-heading" className="text-lg font-semibold">
          {t("title")}
        </h2>
        <p className="text-sm text-slate-600">
          {t("keyboardHint")} {t("expiresNote")}
        </p>
      </div>
      {media.data ? (
        <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          {media.data.items
            .filter((item) => !(item.available && exclude.includes(item.key)))
            .map((item) =>
              item.available ? (
                <ImagePanel key={item.key} item={item} publicId={publicId} onReload={reload} />
              ) : (
                <MissingPanel key={item.key} item={item} />
              ),
            )}
        </div>
      ) : media.isError ? (
        <ApiErrorState error={media.error} onRetry={reload} retrying={media.isFetching} />
      ) : (
        <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3" role="status" aria-label={t("loading")}>
          {[0, 1, 2].map((index) => (
            <div key={index} className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-3">
              <span className="block h-5 w-24 animate-pulse rounded bg-slate-200" />
              <span className="block aspect-square animate-pulse rounded-md bg-slate-100" />
            </div>
          ))}
        </div>
      )}
    </section>
  );
}
