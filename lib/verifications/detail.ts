import "server-only";

import { ApiError } from "@/lib/api/errors";
import { coreClient } from "@/lib/upstream/core";
import { isPublicId } from "@/lib/validations/verifications";

import type { VerificationDeps } from "./list";
import type { VerificationDetailResponse } from "./types";

/** Refuses an id that could change the upstream path, before any call. */
export function assertPublicId(publicId: unknown): asserts publicId is string {
  if (!isPublicId(publicId)) {
    throw new ApiError("validation", "Invalid input: publicId: must be a verification id (letters, digits, _ or -).", {
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
