import { assertJsonContentType } from "@/lib/api/body";
import { json, route } from "@/lib/api/route";
import { kickWebhookProcessor } from "@/lib/webhooks/server/processor";
import { receiveDelivery } from "@/lib/webhooks/server/receive";

// Every consumer of verification changes registers where the processor runs (lib/webhooks/server/changes.ts).
import "@/lib/cases/server/register";
import "@/lib/overview/server/register";

// POST /api/webhooks/verification-events – the service's signed events. Exempt from sign-in and from the
// same-origin check (the signature authenticates the sender), from nothing else: JSON content type, the
// body cap (enforced while reading), the audit trail. The raw text reaches the signature check unparsed.
export const POST = route(
  // Deliveries are small JSON documents; the cap stops anything larger before it is buffered.
  { permission: "public", crossSite: "allow", rawBody: true, maxBodyBytes: 64 * 1024 },
  async ({ db, request, raw, context }) => {
    assertJsonContentType(request);
    const receipt = await receiveDelivery(db, { rawBody: raw, headers: request.headers, ip: context.ip });
    // Out of the request: the answer does not wait for processing (the periodic sweep catches anything missed).
    if (receipt.status === 202) void kickWebhookProcessor();
    return json(receipt.body, { status: receipt.status });
  },
);
