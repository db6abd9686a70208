import "server-only";

import { coreClient } from "@/lib/upstream/core";
import { createVerificationSchema, problemsOf } from "@/lib/validations/verifications";

import { inputError } from "./input";
import type { VerificationDeps } from "./list";
import type { CreateVerificationResponse } from "./types";

/**
 * POST /api/verifications. The body is parsed with the form's own strict schema, so an unknown field
 * (`integration_origin_public_id` above all, which the service removed) is refused here by name; the
 * client then builds the upstream body field by field.
 */
export async function createVerification(body: unknown, deps: VerificationDeps = {}): Promise<CreateVerificationResponse> {
  const parsed = createVerificationSchema.safeParse(body);
  if (!parsed.success) throw inputError(problemsOf(parsed.error));
  const client = deps.client ?? coreClient();
  const created = await client.createVerification(parsed.data, deps.signal);
  return { created: { publicId: created.publicId, status: created.status, refId: created.refId, createdAt: created.createdAt } };
}
