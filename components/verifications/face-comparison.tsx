"use client";

import { useTranslations } from "next-intl";
import { lazy, Suspense, useState } from "react";

import { useVerificationMedia } from "@/lib/verifications/hooks";
import { useHeldImages } from "@/lib/verifications/media-ahead";
import { INITIAL_VIEW } from "@/lib/verifications/zoom";

import { FaceCropControls } from "./face-crop-controls";
import { FaceFrame, type AvailableMedia } from "./face-frame";
import { FaceSimilarity } from "./face-similarity";
import { FaceViewToolbar } from "./face-view-toolbar";
import { MediaReload } from "./media-controls";
import { useFaceCrop } from "./use-face-crop";
import { useFaceView } from "./use-face-view";

// The crop's editor, loaded when the analyst first draws a crop: not part of the case page's first load.
const FaceCropEditor = lazy(() => import("./face-crop-editor").then((module) => ({ default: module.FaceCropEditor })));

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

/**
 * Beside the decision panel, the frames (square) are no taller than the first screen leaves them: at 1280×720 both
 * pictures fit whole under the header, the red flags and the notices (e2e/evidence-first.spec.ts).
 */
const FIRST_SCREEN = "lg:[&>figure]:max-w-[max(12rem,calc(100dvh-27rem))]";

/** `canCrop`: the member holds verifications.crop (draws or clears the portrait crop); otherwise the crop is only shown. */
export function FaceComparison({ publicId, similarity, canCrop = false }: { publicId: string; similarity?: number; canCrop?: boolean }) {
  const t = useTranslations("verifications.faces");
  const tMedia = useTranslations("verifications.media");
  const media = useVerificationMedia(publicId);
  useHeldImages(publicId);
  const faceView = useFaceView();
  const crop = useFaceCrop(publicId, faceView.frameSize, faceView.reset);
  const [failed, setFailed] = useState(false);
  const { view, fullScreen, containerRef, stageRef, frameRef } = faceView;

  const items = media.data?.items ?? [];
  const find = (key: string) => items.find((item): item is AvailableMedia => item.key === key && item.available);
  const selfie = find("selfie");
  const documentFace = find("document_front");

  if (!media.data) return null;
  const { draft, picture } = crop;

  return (
    <section
      ref={containerRef}
      aria-labelledby="faces-heading"
      data-fullscreen={fullScreen || undefined}
      className={`space-y-2 rounded-lg border border-slate-200 bg-white p-3 ${fullScreen ? "overflow-auto" : ""}`}
    >
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1">
        <h2 id="faces-heading" className="text-base font-semibold">
          {t("title")}
        </h2>
        <FaceSimilarity similarity={similarity} />
      </div>

      {failed ? (
        <MediaReload
          className="flex items-center gap-3 text-sm text-slate-700"
          onReload={() => {
            setFailed(false);
            void media.refetch();
          }}
        />
      ) : null}

      <div
        ref={stageRef}
        role="group"
        tabIndex={0}
        aria-label={t("stage")}
        aria-describedby="faces-hint"
        {...faceView.stageHandlers}
        className={`flex cursor-grab touch-none justify-center gap-3 rounded-md outline-offset-2 active:cursor-grabbing ${fullScreen ? "mx-auto max-w-[min(100%,calc(200vh-16rem))]" : FIRST_SCREEN}`}
      >
        <FaceFrame
          side="selfie"
          publicId={publicId}
          item={selfie}
          label={tMedia("selfie")}
          alt={tMedia("alt", { name: tMedia("selfie"), publicId })}
          view={view}
          frameRef={frameRef}
          onFailed={() => setFailed(true)}
        />
        <FaceFrame
          side="document"
          publicId={publicId}
          item={documentFace}
          label={crop.shownBox ? t("documentPortrait") : t("documentFace")}
          alt={tMedia("alt", { name: tMedia("document_front"), publicId })}
          view={draft ? INITIAL_VIEW : view}
          onFailed={() => setFailed(true)}
          inner={crop.inner}
          onNaturalSize={crop.setNatural}
          overlay={
            draft && picture ? (
              <Suspense fallback={null}>
                <FaceCropEditor box={draft} picture={picture} onChange={crop.setDraft} />
              </Suspense>
            ) : null
          }
        />
      </div>

      <FaceViewToolbar faceView={faceView} />
      {/* After the pictures: above them, its two lines pushed them down the first screen. */}
      <p id="faces-hint" className="text-xs text-slate-600">
        {t("hint")}
      </p>

      {/* Shown once the document's picture is laid out: the crop is drawn on it, so there is nothing to offer before. */}
      {documentFace && picture ? <FaceCropControls crop={crop} canCrop={canCrop} /> : null}
    </section>
  );
}
