import "server-only";

import { audited, type RequestContext } from "@/lib/audit-trail/server";
import type { AuditedFailure } from "@/lib/audit-trail/server/actions";
import { hasPermission, type PermissionHolder } from "@/lib/auth/permissions";
import { config } from "@/lib/config";
import { withConnection } from "@/lib/connections/server/bind";
import { liveConnection } from "@/lib/connections/server/store";
import { getDb } from "@/lib/db/client";
import { consumeQuota } from "@/lib/db/quotas";
import type { KeyRing } from "@/lib/keys/ring";
import { log } from "@/lib/log";
import { AppError } from "@/lib/shared/errors";
import { currentAccountId } from "@/lib/upstream/account";
import { coreClient, type VerificationFileEntry } from "@/lib/upstream/core";
import {
  MAX_MEDIA_TOKEN_LENGTH,
  MAX_MEDIA_TOKEN_SECONDS,
  MediaTokenError,
  openMediaToken,
  sealMediaToken,
  type MediaClaim,
} from "@/lib/verifications/server/media-token";
import type { MediaItem, VerificationMediaResponse } from "@/lib/verifications/types";

import { assertPublicId } from "./detail";
import type { VerificationDeps } from "./list";

/*
 * Images of a verification. The service's files operation hands out signed URLs (valid 300 s, one file
 * each). The browser gets sealed tokens (lib/verifications/server/media-token.ts) that name the verification and
 * the file key and carry the signed URL encrypted, expiring before it does; the image route opens the token and
 * the URL inside it, so a picture shown costs the service one files call for the whole page, not one more per
 * picture. A token without a URL has the route ask the service for a fresh one. No URL is logged, stored, cached
 * or sent to the browser readable.
 */

/** The most the image route streams for one file. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** Tokens end a little before the signed URL they stand for, so clock drift never outlives it. */
const TOKEN_EXPIRY_MARGIN_MS = 5_000;

/**
 * Raster image types only: `image/svg+xml` is an image type too, but it can carry script, and the
 * service has no reason to send one.
 */
export function isDisplayableImageType(type: string): boolean {
  return /^image\/[a-z0-9.+-]+$/i.test(type) && !/svg/i.test(type);
}

/** The dashboard address of a sealed token. */
export function mediaSrc(token: string): string {
  return `/api/media/${encodeURIComponent(token)}`;
}

export interface MediaUser {
  id: string;
}

async function describeEntry(entry: VerificationFileEntry, publicId: string, user: MediaUser, ring: KeyRing): Promise<MediaItem> {
  const { key, file } = entry;
  if (!file) return { key, available: false, reason: key === "selfie" ? "liveness_not_approved" : "not_provided" };
  const mediaType = file.type.split(";")[0]!.trim().toLowerCase();
  if (!isDisplayableImageType(mediaType)) return { key, available: false, reason: "unsupported_type" };
  const now = Date.now();
  // No longer than the signed URL's remaining life, and never past the tokens' own maximum.
  const expiresAt = Math.min(file.expiresAt.getTime() - TOKEN_EXPIRY_MARGIN_MS, now + MAX_MEDIA_TOKEN_SECONDS * 1000);
  const connection = currentAccountId();
  const claim = { userId: user.id, publicId, fileKey: key, mediaType, expiresAt, ...(connection ? { connection } : {}) };
  const withUrl = await sealMediaToken({ ...claim, fileUrl: file.url }, ring, now);
  // A URL long enough to push the token past what the image route opens goes unsealed: the route asks for it afresh.
  const token = withUrl.length <= MAX_MEDIA_TOKEN_LENGTH ? withUrl : await sealMediaToken(claim, ring, now);
  return {
    key,
    available: true,
    src: mediaSrc(token),
    mediaType,
    expiresAt: new Date(expiresAt).toISOString(),
    expiresInSeconds: Math.floor((expiresAt - now) / 1000),
  };
}

/**
 * GET /api/verifications/[publicId]/media: a sealed token per file key, or why there is no file. Only to a
 * member holding `media.read` (the route declares it too; this holds for any other caller).
 */
export async function issueMediaTokens(
  publicId: string,
  user: MediaUser & PermissionHolder,
  deps: VerificationDeps = {},
): Promise<VerificationMediaResponse> {
  if (!hasPermission(user, "media.read"))
    throw new AppError("forbidden", "Your role does not include seeing verification images (media.read).");
  assertPublicId(publicId);
  const cfg = deps.cfg ?? config();
  const client = deps.client ?? coreClient();
  const entries = await client.getVerificationFiles(publicId, deps.signal);
  const items = await Promise.all(entries.map((entry) => describeEntry(entry, publicId, user, cfg.secrets.mediaSeal)));
  return { publicId, items };
}

/**
 * The tokens as a member asks for them, audited as `verification.media` (how many were issued, how many files are
 * missing): for GET /api/verifications/:publicId/media and for the detail page's first load, which sends them with
 * its HTML so the pictures start loading before the page's code runs. `ahead`: the queue's next case, read before
 * the member opens it.
 */
export async function viewVerificationMedia(
  context: RequestContext,
  publicId: string,
  user: MediaUser & PermissionHolder,
  { ahead = false }: { ahead?: boolean } = {},
): Promise<VerificationMediaResponse> {
  return audited(
    context,
    {
      action: "verification.media",
      target: { type: "verification", id: publicId },
      details: ahead ? { ahead: "read" } : undefined,
      detailsOf: (media) => ({
        tokens: media.items.filter((item) => item.available).length,
        missing: media.items.filter((item) => !item.available).length,
      }),
    },
    () => issueMediaTokens(publicId, user),
  );
}

/**
 * A refused media token. Another user's token and a forged one get the same answer (403): neither says
 * whose it was. An expired one is 410 and retryable: the page loads the images again.
 */
export class MediaTokenRefused extends AppError implements AuditedFailure {
  readonly auditOutcome = "denied";
  readonly auditReason: string;

  constructor(readonly problem: MediaTokenError["problem"]) {
    super(
      problem === "expired" ? "media_token_expired" : "forbidden",
      problem === "expired" ? undefined : "This image link is not valid for you.",
      problem === "expired" ? { retryable: true } : {},
    );
    this.name = "MediaTokenRefused";
    this.auditReason = `token_${problem}`;
  }
}

export interface OpenedImage {
  /** The token's claim, without the signed URL (it goes no further than the fetch). */
  claim: Omit<MediaClaim, "fileUrl">;
  contentType: string;
  contentLength: number | undefined;
  body: ReadableStream<Uint8Array>;
}

/** Counts bytes as they pass and fails the stream past the cap (a lying or absent Content-Length). */
function capped(limit: number): TransformStream<Uint8Array, Uint8Array> {
  let total = 0;
  return new TransformStream({
    transform(chunk, controller) {
      total += chunk.byteLength;
      if (total > limit) controller.error(new Error("image larger than the limit"));
      else controller.enqueue(chunk);
    },
  });
}

type FilesClient = Pick<ReturnType<typeof coreClient>, "getVerificationFiles">;

// Calls of the files operation in flight, per client and verification (memory only, while in flight).
const filesInFlight = new WeakMap<FilesClient, Map<string, Promise<VerificationFileEntry[]>>>();

/**
 * The files of a verification for the image route. A page asks for its images all at once (each <img> its own
 * request), and one files answer holds every signed URL: requests arriving while a call is in flight share it
 * instead of each spending a call of the provider key's quota. Nothing is kept once it answers (the URLs stay
 * uncached): the next request asks afresh. The shared call carries no one request's abort signal, so a reader
 * leaving does not fail the others; the client's own deadline bounds it.
 */
function filesOnce(client: FilesClient, publicId: string): Promise<VerificationFileEntry[]> {
  let calls = filesInFlight.get(client);
  if (!calls) filesInFlight.set(client, (calls = new Map()));
  const known = calls.get(publicId);
  if (known) return known;
  const call = client.getVerificationFiles(publicId).finally(() => calls.delete(publicId));
  calls.set(publicId, call);
  return call;
}

/** The core client of the connection the token was issued under (an <img> request names none). */
async function clientOfClaim(claim: MediaClaim): Promise<ReturnType<typeof coreClient>> {
  if (!claim.connection) return coreClient();
  return withConnection(await liveConnection(await getDb(), claim.connection), () => coreClient());
}

/** The signed URL a token carries; for a token sealed without one, a fresh one of that file from the service. */
async function signedUrlOf(claim: MediaClaim, client: FilesClient | undefined): Promise<string> {
  if (claim.fileUrl) return claim.fileUrl;
  const entries = await filesOnce(client ?? (await clientOfClaim(claim)), claim.publicId);
  const file = entries.find((entry) => entry.key === claim.fileKey)?.file;
  if (!file) throw new AppError("not_found");
  return file.url;
}

/**
 * GET /api/media/[token]: opens the token for this user and the signed URL of that one file it carries (or a
 * fresh one), and opens that without following redirects. Throws MediaTokenRefused for a bad token, AppError or
 * UpstreamError otherwise.
 */
export async function openImage(
  token: string,
  user: MediaUser,
  deps: VerificationDeps & { maxBytes?: number; fetch?: typeof fetch; onValidToken?: (claim: MediaClaim) => Promise<unknown> } = {},
): Promise<OpenedImage> {
  const cfg = deps.cfg ?? config();
  let claim: MediaClaim;
  try {
    claim = await openMediaToken(token, user.id, cfg.secrets.mediaSeal);
  } catch (error) {
    if (error instanceof MediaTokenError) throw new MediaTokenRefused(error.problem);
    throw error;
  }
  assertPublicId(claim.publicId);
  // A valid token only: a forged or expired one uses up nothing.
  await deps.onValidToken?.(claim);
  const { fileUrl: _sealed, ...shown } = claim;
  const url = await signedUrlOf(claim, deps.client);

  const maxBytes = deps.maxBytes ?? MAX_IMAGE_BYTES;
  const timeout = AbortSignal.timeout(cfg.upstream.timeoutMs * 3);
  const signal = deps.signal ? AbortSignal.any([timeout, deps.signal]) : timeout;
  let response: Response;
  try {
    // Never follow a redirect: the signed URL opens one file, and a 3xx would send us somewhere unchecked.
    response = await (deps.fetch ?? fetch)(url, { redirect: "manual", cache: "no-store", signal, headers: { accept: "image/*" } });
  } catch {
    // The error may quote the URL: only the fact is logged.
    log.warn("media_fetch", { outcome: timeout.aborted ? "timeout" : "network_error" });
    throw new AppError("upstream_unavailable", undefined, { retryable: true });
  }
  const refuse = (outcome: string, error: AppError): never => {
    log.warn("media_fetch", { outcome, status: response.status });
    void response.body?.cancel().catch(() => undefined);
    throw error;
  };
  if (response.status !== 200) {
    refuse(
      response.status >= 300 && response.status < 400 ? "redirect_refused" : "bad_status",
      new AppError("upstream_unavailable", undefined, { retryable: true }),
    );
  }
  const contentType = (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (!isDisplayableImageType(contentType)) {
    refuse("not_an_image", new AppError("upstream_rejected", "The verification service sent a file that is not an image."));
  }
  const declared = response.headers.get("content-length");
  const contentLength = declared && /^\d+$/.test(declared) ? Number(declared) : undefined;
  if (contentLength !== undefined && contentLength > maxBytes) {
    refuse("too_large", new AppError("payload_too_large", "The image is larger than the dashboard shows."));
  }
  if (!response.body) refuse("empty", new AppError("upstream_unavailable", undefined, { retryable: true }));
  return { claim: shown, contentType, contentLength, body: response.body!.pipeThrough(capped(maxBytes)) };
}

/**
 * GET /api/media/[token]: one image opened, as an audited read (`verification.image`), counted against the
 * member's media quota once the token is known good and before the service is asked (lib/db/quotas.ts; a
 * refusal is a 429 recorded as denied). `ahead`: the image of a case the member has not opened yet, read into
 * the browser's memory (`ahead: "read"`); when the page shows it, recordImagesShown records the view.
 */
export async function viewImage(
  context: RequestContext,
  token: string,
  user: MediaUser & PermissionHolder,
  deps: VerificationDeps = {},
  { ahead = false }: { ahead?: boolean } = {},
): Promise<OpenedImage> {
  if (!hasPermission(user, "media.read"))
    throw new AppError("forbidden", "Your role does not include seeing verification images (media.read).");
  const db = await getDb();
  return audited(
    context,
    {
      action: "verification.image",
      targetOf: (opened) => ({ type: "verification", id: opened.claim.publicId }),
      details: ahead ? { ahead: "read" } : undefined,
      detailsOf: (opened) => ({ file: opened.claim.fileKey }),
      discard: (opened) => void opened.body.cancel().catch(() => undefined),
    },
    () => openImage(token, user, { ...deps, onValidToken: () => consumeQuota(db, "media_view", user.id) }),
  );
}

/** A file key as the service names them (selfie, document_front…): what a report of images shown may name. */
export const FILE_KEY_PATTERN = /^[a-z][a-z0-9_]{0,39}$/;

/**
 * POST /api/verifications/[publicId]/media/shown: the page showed pictures it had read ahead (each recorded
 * then as `ahead: "read"`, delivered but not seen); now each is recorded as seen (`verification.image`,
 * `ahead: "shown"`), when it is. Asks the service nothing; only for a member holding `media.read`.
 */
export async function recordImagesShown(
  context: RequestContext,
  publicId: string,
  files: readonly string[],
  user: PermissionHolder,
): Promise<{ recorded: number }> {
  if (!hasPermission(user, "media.read"))
    throw new AppError("forbidden", "Your role does not include seeing verification images (media.read).");
  assertPublicId(publicId);
  for (const file of files) {
    await audited(
      context,
      { action: "verification.image", target: { type: "verification", id: publicId }, details: { file, ahead: "shown" } },
      async () => undefined,
    );
  }
  return { recorded: files.length };
}
