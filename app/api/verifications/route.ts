import { NextResponse } from "next/server";

import { ApiError, toErrorResponse } from "@/lib/api/errors";
import { requireUser } from "@/lib/auth/require-role";
import { parseVerificationFilters } from "@/lib/validations/verifications";
import { auditContext, audited } from "@/lib/verifications/audit";
import { listDetails } from "@/lib/verifications/audit-details";
import { createVerification } from "@/lib/verifications/create";
import { inputError } from "@/lib/verifications/input";
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
      () => listVerifications(filters),
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
      },
      () => createVerification(body),
    );
    return NextResponse.json(data, { status: 201, headers: NO_STORE });
  } catch (error) {
    return toErrorResponse(error);
  }
}
