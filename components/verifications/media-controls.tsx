"use client";

import { useTranslations } from "next-intl";

import { Button } from "@/components/ui/button";

/*
 * The controls the image viewers share: one image's panel (media-viewer.tsx) and the two faces side by side
 * (face-view-toolbar.tsx) each hold their own view, and say here what a button does to it.
 */

/** Zoom out, zoom in, a quarter turn either way, and back to the start: buttons for a toolbar. */
export function ViewButtons({
  zoomOut,
  zoomIn,
  rotate,
  reset,
}: {
  zoomOut: () => void;
  zoomIn: () => void;
  rotate: (degrees: number) => void;
  reset: () => void;
}) {
  const t = useTranslations("verifications.media");
  return (
    <>
      <Button variant="secondary" className="px-3 py-1" aria-label={t("zoomOut")} title={t("zoomOut")} onClick={zoomOut}>
        <span aria-hidden="true">−</span>
      </Button>
      <Button variant="secondary" className="px-3 py-1" aria-label={t("zoomIn")} title={t("zoomIn")} onClick={zoomIn}>
        <span aria-hidden="true">+</span>
      </Button>
      <Button variant="secondary" className="px-3 py-1" aria-label={t("rotateLeft")} title={t("rotateLeft")} onClick={() => rotate(-90)}>
        <span aria-hidden="true">⟲</span>
      </Button>
      <Button variant="secondary" className="px-3 py-1" aria-label={t("rotateRight")} title={t("rotateRight")} onClick={() => rotate(90)}>
        <span aria-hidden="true">⟳</span>
      </Button>
      <Button variant="ghost" className="px-3 py-1" onClick={reset}>
        {t("reset")}
      </Button>
    </>
  );
}

/** An image that did not load, and the button that asks for fresh tokens. */
export function MediaReload({ className, onReload }: { className: string; onReload: () => void }) {
  const t = useTranslations("verifications.media");
  return (
    <div className={className}>
      <p role="alert">{t("loadFailed")}</p>
      <Button variant="secondary" onClick={onReload}>
        {t("reload")}
      </Button>
    </div>
  );
}
