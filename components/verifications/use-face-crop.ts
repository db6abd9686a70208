"use client";

import { useState } from "react";

import { containedRect, cropTransform, type CropBox } from "@/lib/verifications/crop";
import { useDocumentCrop, useSaveDocumentCrop } from "@/lib/verifications/hooks";

const DEFAULT_CROP: CropBox = { x: 0.05, y: 0.15, w: 0.35, h: 0.7 };

/**
 * The document's portrait crop (lib/verifications/crop.ts): the saved box, the draft being drawn, and whether
 * the portrait or the whole document is shown. `frameWidth` is the frame's width in pixels; `resetView` puts
 * the shared view back before drawing, since the box is drawn on the unzoomed picture.
 */
export function useFaceCrop(publicId: string, frameWidth: number, resetView: () => void) {
  const crop = useDocumentCrop(publicId);
  const save = useSaveDocumentCrop(publicId);
  const [natural, setNatural] = useState<{ width: number; height: number } | null>(null);
  const [showCrop, setShowCrop] = useState(true);
  const [draft, setDraft] = useState<CropBox | null>(null);

  const picture = natural && frameWidth > 0 ? containedRect(natural, frameWidth) : null;
  const savedBox = crop.data?.crop?.box ?? null;
  const shownBox = draft ? null : showCrop ? savedBox : null;
  const inner = shownBox && picture ? cropTransform(shownBox, picture, frameWidth) : undefined;
  const startEditing = () => {
    resetView();
    setDraft(savedBox ?? DEFAULT_CROP);
  };
  const saveDraft = (box: CropBox) =>
    save.mutate(box, {
      onSuccess: () => {
        setDraft(null);
        setShowCrop(true);
      },
    });

  return {
    /** The picture's place inside the frame, once it has loaded and the frame is laid out. */
    picture,
    savedBox,
    shownBox,
    inner,
    draft,
    setDraft,
    showCrop,
    toggleShowCrop: () => setShowCrop((shown) => !shown),
    setNatural,
    startEditing,
    saveDraft,
    clear: () => save.mutate(null),
    save,
  };
}
