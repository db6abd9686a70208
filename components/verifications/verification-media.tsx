"use client";

import { FACE_KEYS, FaceComparison } from "./face-comparison";
import { MediaViewer } from "./media-viewer";

/**
 * The verification's pictures, an island of the server-drawn evidence: the face comparison (selfie beside the
 * document's face, with zoom and the crop), then the other images. Both read the page's image tokens.
 */
export function VerificationMedia({
  publicId,
  similarity,
  canCrop,
}: {
  publicId: string;
  similarity: number | undefined;
  canCrop: boolean;
}) {
  return (
    <>
      <FaceComparison publicId={publicId} similarity={similarity} canCrop={canCrop} />
      <MediaViewer publicId={publicId} exclude={FACE_KEYS} />
    </>
  );
}
