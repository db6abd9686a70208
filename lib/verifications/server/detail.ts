import "server-only";

import { audited, type RequestContext } from "@/lib/audit-trail/server";
import type { PermissionHolder } from "@/lib/auth/permissions";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/shared/errors";
import { coreClient } from "@/lib/upstream/core";
import type { Verification } from "@/lib/upstream/model/verification";
import { isPublicId } from "@/lib/upstream/model/verification-query";
import type { VerificationDetailResponse } from "@/lib/verifications/types";

import { subjectCpfHashOf } from "./known";
import type { VerificationDeps } from "./list";
import { asSeenBy } from "./personal-data";

/** Refuses an id that could change the upstream path, before any call. */
export function assertPublicId(publicId: unknown): asserts publicId is string {
  if (!isPublicId(publicId)) {
    throw new AppError("validation", "Invalid input: publicId: must be a verification id (letters, digits, _ or -).", {
      fields: ["publicId"],
    });
  }
}

/** One verification; the service's 404 (absent, or another integration's or environment's) stays a plain 404. */
export async function getVerificationDetail(publicId: string, deps: VerificationDeps = {}): Promise<VerificationDetailResponse> {
  assertPublicId(publicId);
  const client = deps.client ?? coreClient();
  return { verification: await client.getVerification(publicId, deps.signal) };
}

/**
 * Opening a verification, as its page and GET /api/verifications/:publicId both do: an audited read
 * (`verification.view`), tagged with the person's CPF hash when known here, so the audit page's CPF search
 * finds the view; then masked for a member without `personal_data.unmasked` before it leaves.
 */
export async function viewVerification(
  context: RequestContext,
  publicId: string,
  viewer: PermissionHolder,
  deps: VerificationDeps = {},
): Promise<VerificationDetailResponse> {
  return { verification: asSeenBy(viewer, await readVerification(context, publicId, deps)) };
}

/**
 * The audited read itself (`verification.view`), as the service gave it: for the server's own use only (a
 * re-verification reads the document the service shows; ./reverification.ts). What leaves for a member goes
 * through viewVerification.
 */
export async function readVerification(context: RequestContext, publicId: string, deps: VerificationDeps = {}): Promise<Verification> {
  const { verification } = await audited(
    context,
    {
      action: "verification.view",
      target: { type: "verification", id: publicId },
      subjectCpfHashOf: async (result) => subjectCpfHashOf(await getDb(), result.verification),
    },
    () => getVerificationDetail(publicId, deps),
  );
  return verification;
}
