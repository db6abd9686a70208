"use client";

import { useTranslations } from "next-intl";
import { useRef, type KeyboardEvent, type PointerEvent } from "react";

import { boxFromDrag, nudgeBox, type CropBox, type Rect } from "@/lib/verifications/crop";

const CROP_STEP = 0.01;

/**
 * Drawing the crop on the document's frame: drag a box over the picture, or move it with the arrows and resize
 * it with Shift+arrows. Pointer events stay here (the stage would pan otherwise).
 */
export function FaceCropEditor({ box, picture, onChange }: { box: CropBox; picture: Rect; onChange: (box: CropBox) => void }) {
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
