import "server-only";

import { indexCreatedVerification } from "@/lib/cases/search";
import { coreClient } from "@/lib/upstream/core";
import { createVerificationSchema, problemsOf, type CreateVerificationInput } from "@/lib/validations/verifications";

import { inputError } from "./input";
import type { VerificationDeps } from "./list";
import type { CreateVerificationResponse } from "./types";

/**
 * The body of POST /api/verifications, parsed with the form's own strict schema, so an unknown field
 * (`integration_origin_public_id` above all, which the service removed) is refused here by name, before
 * anything is recorded or sent.
 */
export function parseCreateVerification(body: unknown): CreateVerificationInput {
  const parsed = createVerificationSchema.safeParse(body);
  if (!parsed.success) throw inputError(problemsOf(parsed.error));
  return parsed.data;
}

/** Creates the verification upstream; the client builds the upstream body field by field. */
export async function createVerification(input: CreateVerificationInput, deps: VerificationDeps = {}): Promise<CreateVerificationResponse> {
  const client = deps.client ?? coreClient();
  const created = await client.createVerification(input, deps.signal);
  await indexCreatedVerification(input, created);
  return { created: { publicId: created.publicId, status: created.status, refId: created.refId, createdAt: created.createdAt } };
}
