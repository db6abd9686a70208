import { toErrorResponse } from "@/lib/api/errors";
import { requireUser } from "@/lib/auth/require-role";
import { config } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { auditContext, noStoreJson, readJson } from "@/lib/partners-ops/http";
import { sendSmsCode } from "@/lib/partners-ops/sms";
import type { SmsSendResponse } from "@/lib/partners-ops/types";
import { partnersClient } from "@/lib/upstream/partners";
import { formatPhone, smsSendSchema } from "@/lib/validations/phone";

// POST /api/sms/send – sends a validation code to a Brazilian mobile; refused during the resend cooldown.
export async function POST(request: Request) {
  try {
    const user = await requireUser(request);
    const { phone } = smsSendSchema.parse(await readJson(request));
    const cfg = config();
    const { resendAfterSeconds } = await sendSmsCode(await getDb(), partnersClient(), {
      ...auditContext(user, request),
      phone,
      cooldownSeconds: cfg.smsResendCooldownSeconds,
      secret: cfg.secrets.auditHash,
    });
    return noStoreJson<SmsSendResponse>({ sent: true, phone: formatPhone(phone), resendAfterSeconds });
  } catch (error) {
    return toErrorResponse(error);
  }
}
