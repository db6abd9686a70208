"use client";

import { useTranslations } from "next-intl";

import { Button } from "@/components/ui/button";

import { ViewButtons } from "./media-controls";
import { KEY_ZOOM, type useFaceView } from "./use-face-view";

/** The shared view's buttons (zoom, rotate, reset, full screen) and its zoom level, read out as it changes. */
export function FaceViewToolbar({ faceView }: { faceView: ReturnType<typeof useFaceView> }) {
  const t = useTranslations("verifications.faces");
  const tMedia = useTranslations("verifications.media");
  const { view, fullScreen, zoomBy, rotate } = faceView;
  return (
    <div className="flex flex-wrap items-center gap-1" role="toolbar" aria-label={t("controls")}>
      <ViewButtons zoomOut={() => zoomBy(1 / KEY_ZOOM)} zoomIn={() => zoomBy(KEY_ZOOM)} rotate={rotate} reset={faceView.reset} />
      <Button variant="secondary" className="px-3 py-1" aria-pressed={fullScreen} onClick={faceView.toggleFullScreen}>
        {fullScreen ? t("exitFullScreen") : t("fullScreen")}
      </Button>
      <span className="ml-2 text-xs text-slate-600 tabular-nums" aria-live="polite">
        {tMedia("zoomLevel", { zoom: Math.round(view.zoom * 100), rotation: view.rotation })}
      </span>
    </div>
  );
}
