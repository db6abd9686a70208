import { NextResponse } from "next/server";

import { ApiError, toErrorResponse } from "@/lib/api/errors";
import { requireUser } from "@/lib/auth/require-role";
import { getDb } from "@/lib/db/client";
import { log } from "@/lib/log";
import { parseVerificationFilters } from "@/lib/validations/verifications";
import { auditContext, audited } from "@/lib/verifications/audit";
import { listDetails } from "@/lib/verifications/audit-details";
import { createVerification } from "@/lib/verifications/create";
import { enrichList } from "@/lib/verifications/enrich";
import { inputError } from "@/lib/verifications/input";
import { creationCpfHash, rememberCreated } from "@/lib/verifications/known";
import { listVerifications } from "@/lib/verifications/list";

const NO_STORE = { "Cache-Control": "no-store" };
const MAX_BODY_BYTES = 16 * 1024;

// GET /api/verifications – the list. Only status, flow, journey, from, to, per_page and page are
// accepted; anything else is a 400 naming it, before any upstream call.
export async function GET(request: Request) {
  try {
    const user = await requireUser(request, "analyst");
    const parsed = parseVerificationFilters(new URL(request.url).searchParams);
    if (!parsed.ok) throw inputError(parsed.problems);
    const { filters } = parsed;
    const data = await audited(
      auditContext(user, request.headers),
      { action: "verification.list", details: listDetails(filters), detailsOf: (list) => ({ count: list.items.length }) },
      async () => enrichList(await getDb(), await listVerifications(filters)),
    );
    return NextResponse.json(data, { headers: NO_STORE });
  } catch (error) {
    return toErrorResponse(error);
  }
}

async function readJson(request: Request): Promise<unknown> {
  const text = await request.text();
  if (new TextEncoder().encode(text).byteLength > MAX_BODY_BYTES) throw new ApiError("payload_too_large");
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError("bad_request", "The body must be JSON.");
  }
}

// POST /api/verifications – create a verification. The body is the form's strict schema:
// `integration_origin_public_id` (or any other unknown field) is refused by name.
export async function POST(request: Request) {
  try {
    const user = await requireUser(request, "analyst");
    const body = await readJson(request);
    const data = await audited(
      auditContext(user, request.headers),
      {
        action: "verification.create",
        targetOf: (result) => (result.created.publicId ? { type: "verification", id: result.created.publicId } : undefined),
        // The typed CPF's keyed hash: the audit page's CPF search finds this creation.
        subjectCpfHash: creationCpfHash(body),
      },
      async () => {
        const result = await createVerification(body);
        const { publicId } = result.created;
        // The ref_id column and later views' CPF tag; the creation itself stands even if this write fails.
        if (publicId)
          await rememberCreated(await getDb(), publicId, body).catch((error) => log.error("known_verification_failed", { error }));
        return result;
      },
    );
    return NextResponse.json(data, { status: 201, headers: NO_STORE });
  } catch (error) {
    return toErrorResponse(error);
  }
}
