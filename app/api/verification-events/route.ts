import { NextResponse } from "next/server";

import { ApiError, toErrorResponse } from "@/lib/api/errors";
import { requireUser } from "@/lib/auth/require-role";
import { getDb } from "@/lib/db/client";
import { listChangesSince } from "@/lib/webhooks/store";

// GET /api/verification-events?after=N – what the service's webhooks recorded after cursor N (without
// `after`: the current cursor only). Open lists poll it: it reads the dashboard's own store, never the
// service. Not put on the audit trail: pages poll it every few seconds, and it holds only ids, event
// names and statuses, which the audited list and detail views already show.
export async function GET(request: Request) {
  try {
    await requireUser(request, "analyst");
    const raw = new URL(request.url).searchParams.get("after");
    if (raw !== null && !/^\d{1,15}$/.test(raw)) {
      throw new ApiError("validation", "after: must be a non-negative integer cursor.", { fields: ["after"] });
    }
    const feed = await listChangesSince(await getDb(), raw === null ? undefined : Number(raw));
    return NextResponse.json(feed, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return toErrorResponse(error);
  }
}
