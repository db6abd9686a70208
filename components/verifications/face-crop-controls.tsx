"use client";

import { useTranslations } from "next-intl";

import { Button } from "@/components/ui/button";

import type { useFaceCrop } from "./use-face-crop";

/**
 * The portrait crop's toolbar: draw, save or cancel a box (`canCrop`: the member holds verifications.crop),
 * or switch between the portrait and the whole document.
 */
export function FaceCropControls({ crop, canCrop }: { crop: ReturnType<typeof useFaceCrop>; canCrop: boolean }) {
  const t = useTranslations("verifications.faces");
  const { draft, savedBox, showCrop, save } = crop;
  return (
    <div className="flex flex-wrap items-center gap-2 border-t border-slate-200 pt-3" role="toolbar" aria-label={t("cropControls")}>
      {draft ? (
        <>
          <p id="faces-crop-hint" className="w-full text-sm text-slate-700">
            {t("cropEditHint")}
          </p>
          <Button className="px-3 py-1" pending={save.isPending} onClick={() => crop.saveDraft(draft)}>
            {t("cropSave")}
          </Button>
          <Button variant="ghost" className="px-3 py-1" onClick={() => crop.setDraft(null)}>
            {t("cropCancel")}
          </Button>
        </>
      ) : (
        <>
          {canCrop ? (
            <Button variant="secondary" className="px-3 py-1" onClick={crop.startEditing}>
              {savedBox ? t("cropChange") : t("cropStart")}
            </Button>
          ) : null}
          {savedBox ? (
            <>
              <Button variant="secondary" className="px-3 py-1" aria-pressed={!showCrop} onClick={crop.toggleShowCrop}>
                {showCrop ? t("cropShowWhole") : t("cropShowPortrait")}
              </Button>
              {canCrop ? (
                <Button variant="ghost" className="px-3 py-1" pending={save.isPending} onClick={crop.clear}>
                  {t("cropClear")}
                </Button>
              ) : null}
            </>
          ) : null}
        </>
      )}
      <span className="text-xs text-slate-600" aria-live="polite">
        {save.isError ? t("cropFailed") : save.isSuccess && !draft ? t("cropSaved") : ""}
      </span>
    </div>
  );
}
