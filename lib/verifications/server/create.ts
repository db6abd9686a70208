import "server-only";

import { indexCreatedVerification } from "@/lib/cases/server/search";
import { chooseFlow, type ConnectionFlow } from "@/lib/connections/flows";
import { AppError } from "@/lib/shared/errors";
import { coreClient } from "@/lib/upstream/core";
import { isUpstreamError } from "@/lib/upstream/errors";
import { parseCreateVerificationInput, type CreateVerificationInput } from "@/lib/verifications/rules";
import type { CreateVerificationResponse } from "@/lib/verifications/types";

import { inputError } from "./input";
import type { VerificationDeps } from "./list";

/**
 * The body of POST /api/verifications, parsed with the form's own strict parser, so an unknown field
 * (`integration_origin_public_id` above all, which the service removed) is refused here by name, before
 * anything is recorded or sent. The flow follows the connection's (lib/connections/flows.ts): one of those it names,
 * its first when none is chosen.
 */
export function parseCreateVerification(body: unknown, flows: readonly ConnectionFlow[]): CreateVerificationInput {
  const parsed = parseCreateVerificationInput(body);
  if (!parsed.ok) throw inputError(parsed.problems);
  const flow = chooseFlow(parsed.value.flowPublicId, flows);
  if (!flow.ok) throw inputError([{ field: "flowPublicId", message: flow.message, code: "invalid" }]);
  const { flowPublicId: _asked, ...rest } = parsed.value;
  return flow.flowPublicId ? { ...rest, flowPublicId: flow.flowPublicId } : rest;
}

/** Creates the verification upstream; the client builds the upstream body field by field. */
export async function createVerification(input: CreateVerificationInput, deps: VerificationDeps = {}): Promise<CreateVerificationResponse> {
  return (await createVerificationWithEntry(input, deps)).response;
}

/**
 * The one creation path, with the entry's address for a caller that hands it on (a case's re-verification,
 * ./reverification.ts); POST /api/verifications leaves it on the server.
 */
export async function createVerificationWithEntry(
  input: CreateVerificationInput,
  deps: VerificationDeps = {},
): Promise<{ response: CreateVerificationResponse; entryUrl: string | null }> {
  const client = deps.client ?? coreClient();
  try {
    const { created, entryUrl } = await client.createVerificationWithEntry(input, deps.signal);
    await indexCreatedVerification(input, created);
    const { publicId, status, refId, createdAt, expiresAt, replayed } = created;
    return { response: { created: { publicId, status, refId, createdAt, expiresAt, replayed } }, entryUrl };
  } catch (error) {
    // api/verifications.mdx: the same ref_id with a different body is a 409 (pocs/resume-expiry names it
    // E_REF_ID_CONFLICT). The analyst's own choice of reference, not a service failure: say so, on the field.
    if (isUpstreamError(error) && error.status === 409) {
      throw new AppError(
        "conflict",
        "This reference (ref_id) was already used with different details. A new verification needs a new reference.",
        { fields: ["refId"], requestId: error.requestId },
      );
    }
    throw error;
  }
}
