/*
 * Signed file URLs: `/files/{file_public_id}?expires={unix seconds}&signature={hex hmac-sha256}`, the HMAC
 * covering `{file_public_id}:{expires}` with a per-process secret. One URL opens exactly one file; a
 * tampered or expired URL answers 403 text/plain. Files are pictures drawn on demand (images.ts).
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";

import { hashString } from "./fixtures/prng";
import type { VerificationRecord } from "./fixtures/verifications";
import { text, type Ctx, type Reply } from "./http";
import { renderImage, type ImageKind } from "./images";
import type { SandboxState } from "./state";

export const FILE_TTL_SECONDS = 300;

/** What a signed file id opens: a picture drawn for a person. */
export interface FileEntry {
  personSeed: number;
  kind: ImageKind;
}
export const FILE_KINDS: readonly ImageKind[] = ["selfie", "document_back", "document_front"];

export interface SignedFile {
  url: string;
  expires_in: number;
  file: { public_id: string; type: string };
}

/** A stable uuid-shaped id per verification and picture. */
export function fileIdFor(verificationId: string, kind: ImageKind): string {
  const hex = createHash("sha256").update(`file:${verificationId}:${kind}`).digest("hex");
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function signature(state: SandboxState, fileId: string, expires: string): string {
  return createHmac("sha256", state.fileSecret).update(`${fileId}:${expires}`).digest("hex");
}

/** The files answer of the core API for one verification (null for pictures that do not exist). */
export function signedFiles(state: SandboxState, record: VerificationRecord): Record<ImageKind, SignedFile | null> {
  const expires = String(state.clock.nowSeconds() + FILE_TTL_SECONDS);
  const personSeed = hashString(`image:${record.cpf}`);
  const result = {} as Record<ImageKind, SignedFile | null>;
  for (const kind of FILE_KINDS) {
    if (!record.files[kind]) {
      result[kind] = null;
      continue;
    }
    const fileId = fileIdFor(record.publicId, kind);
    state.files.set(fileId, { personSeed, kind });
    result[kind] = {
      url: `${state.publicBase}/files/${encodeURIComponent(fileId)}?expires=${expires}&signature=${signature(state, fileId, expires)}`,
      expires_in: FILE_TTL_SECONDS,
      file: { public_id: fileId, type: "image/png" },
    };
  }
  return result;
}

const REFUSED = "Forbidden: invalid or expired file signature.\n";

export function serveFile(state: SandboxState, ctx: Ctx): Reply {
  const fileId = ctx.params.file_public_id ?? "";
  const params = new URLSearchParams(ctx.rawQuery ?? "");
  const names = [...params.keys()];
  const expires = params.get("expires") ?? "";
  const given = params.get("signature") ?? "";
  const wellFormed =
    ctx.rawQuery !== null &&
    names.length === 2 &&
    params.getAll("expires").length === 1 &&
    params.getAll("signature").length === 1 &&
    /^\d{1,12}$/.test(expires) &&
    /^[0-9a-f]{64}$/.test(given);
  if (!wellFormed) return text(403, REFUSED);
  const expected = Buffer.from(signature(state, fileId, expires), "hex");
  if (!timingSafeEqual(expected, Buffer.from(given, "hex"))) return text(403, REFUSED);
  if (state.clock.nowSeconds() > Number(expires)) return text(403, REFUSED);
  const entry = state.files.get(fileId);
  if (!entry) return text(404, "Not found.\n");
  return {
    status: 200,
    headers: { "content-type": "image/png", "cache-control": "private, no-store" },
    body: renderImage(entry.kind, entry.personSeed),
  };
}
