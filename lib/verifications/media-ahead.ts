import { useEffect, useSyncExternalStore } from "react";

import { apiResponse } from "@/lib/shared/api-client/api-request";
import { AHEAD_HEADERS } from "@/lib/shared/api-client/background";

import { postImagesShown, useVerificationMediaAhead } from "./hooks";
import { ImageMemory, ShownReporter, type HeldPicture } from "./image-memory";

/*
 * The browser's side of reading a case's images ahead (./image-memory.ts): one memory and one reporter per
 * tab, the hook the current case uses to read its next case ahead, and the hooks the image frames use to show
 * a picture from memory and report it shown.
 */

/** The hand-over from the page that read a case ahead to the page showing it happens in one render; this is ample. */
const HANDOVER_GRACE_MS = 2_000;

/** The image route's answer as bytes: a refusal (an expired token, the media quota) is a failure, never an image. */
async function fetchImageAhead(src: string, signal: AbortSignal): Promise<Blob> {
  // Only the dashboard's own image route: a token's address, never anything else.
  if (!src.startsWith("/api/media/")) throw new Error("not a media token address");
  // No step-up dialog for a read ahead: the member did not ask for it.
  const response = await apiResponse(src, { signal, headers: { accept: "image/*", ...AHEAD_HEADERS }, stepUp: false });
  if (!/^image\//.test(response.headers.get("content-type") ?? "")) {
    await response.body?.cancel().catch(() => undefined);
    throw new Error(`image read ahead refused (${response.status})`);
  }
  return response.blob();
}

async function decodeAhead(url: string): Promise<HTMLImageElement> {
  const image = new Image();
  image.src = url;
  await image.decode();
  return image;
}

let memory: ImageMemory | undefined;

/** This tab's pictures read ahead. */
export function imageMemory(): ImageMemory {
  memory ??= new ImageMemory({
    fetchBytes: fetchImageAhead,
    createUrl: (blob) => URL.createObjectURL(blob),
    revokeUrl: (url) => URL.revokeObjectURL(url),
    decode: decodeAhead,
    graceMs: HANDOVER_GRACE_MS,
    setTimer: (run, ms) => setTimeout(run, ms),
    clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
  });
  return memory;
}

let reporter: ShownReporter | undefined;

function shownReporter(): ShownReporter {
  reporter ??= new ShownReporter(postImagesShown);
  return reporter;
}

/**
 * Reads a case ahead of the member: its image tokens (kept fresh while they wait), then each picture's bytes,
 * decoded, into this tab's memory. Nothing without `media.read` (`enabled`), nothing for `null`.
 */
export function useMediaAhead(publicId: string | null, { enabled }: { enabled: boolean }): void {
  const on = enabled && publicId !== null;
  const tokens = useVerificationMediaAhead(publicId, { enabled: on });
  useEffect(() => (on ? imageMemory().hold(publicId) : undefined), [on, publicId]);
  const items = tokens.data?.items;
  useEffect(() => {
    if (!on || !items) return;
    for (const item of items) if (item.available) void imageMemory().warm(publicId, item.key, item.src);
  }, [on, publicId, items]);
}

/** Keeps a case's pictures read ahead while the page shows them (the frames hold them; released when they go). */
export function useHeldImages(publicId: string): void {
  useEffect(() => imageMemory().hold(publicId), [publicId]);
}

export interface ShownImage {
  /** What the <img> shows: the picture from memory, nothing while it arrives (no second fetch), else the token's address. */
  src: string | undefined;
  /** Call from the image's load: a picture from memory is then reported shown (once). */
  onShown: () => void;
  /** Call from the image's error: true when it was the picture from memory (now let go: the token's address follows). */
  onFailed: () => boolean;
}

export function useShownImage(publicId: string, key: string, tokenSrc: string): ShownImage {
  const held: HeldPicture = useSyncExternalStore(
    imageMemory().subscribe,
    () => imageMemory().pictureOf(publicId, key),
    () => undefined,
  );
  return {
    src: held === undefined ? tokenSrc : (held ?? undefined),
    onShown: () => {
      if (held && imageMemory().firstShown(publicId, key)) shownReporter().report(publicId, key);
    },
    onFailed: () => {
      if (!held) return false;
      imageMemory().forget(publicId, key);
      return true;
    },
  };
}
