import { NextResponse } from "next/server";

import { ApiError, toErrorResponse } from "@/lib/api/errors";
import { clientAddress } from "@/lib/auth/address";
import { config } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { kickWebhookProcessor } from "@/lib/webhooks/processor";
import { receiveDelivery } from "@/lib/webhooks/receive";

// Deliveries are small JSON documents; the cap stops a large body before it is buffered.
const MAX_BODY_BYTES = 64 * 1024;

// POST /api/webhooks/verification-events – the service's signed events. No session and no same-origin
// check (the signature authenticates the sender); size cap, JSON content type and the audit trail apply.
export async function POST(request: Request) {
  try {
    if (!/^application\/json\s*(;|$)/i.test(request.headers.get("content-type") ?? "")) {
      throw new ApiError("bad_request", "The webhook body must be application/json.");
    }
    const rawBody = await readCapped(request);
    const receipt = await receiveDelivery(await getDb(), {
      rawBody,
      headers: request.headers,
      ip: clientAddress(request.headers, config().trustedProxies),
    });
    // Out of the request: the answer does not wait for processing (the sweep catches anything missed).
    if (receipt.status === 202) void kickWebhookProcessor();
    return NextResponse.json(receipt.body, { status: receipt.status, headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return toErrorResponse(error);
  }
}

// Replaced by the route kit's capped reader at merge.
async function readCapped(request: Request): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw new ApiError("payload_too_large");
  const text = await request.text();
  if (Buffer.byteLength(text, "utf8") > MAX_BODY_BYTES) throw new ApiError("payload_too_large");
  return text;
}
