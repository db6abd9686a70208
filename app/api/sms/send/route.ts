import { json, route } from "@/lib/api/route";
import { config } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { sendSmsCode } from "@/lib/kyc/server/sms";
import type { SmsSendResponse } from "@/lib/kyc/types";
import { formatPhone, smsSendSchema } from "@/lib/shared/phone";
import { partnersClient } from "@/lib/upstream/partners";

// POST /api/sms/send – sends a validation code to a Brazilian mobile; refused during the resend cooldown.
export const POST = route({ permission: "sms.send", body: smsSendSchema }, async ({ context, body: { phone } }) => {
  const { smsResendCooldownSeconds: cooldownSeconds, secrets } = config();
  const { resendAfterSeconds } = await sendSmsCode(await getDb(), partnersClient(), context, {
    phone,
    cooldownSeconds,
    secret: secrets.auditHash.current.secret,
  });
  return json<SmsSendResponse>({ sent: true, phone: formatPhone(phone), resendAfterSeconds });
});
