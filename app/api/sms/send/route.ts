import { json, route } from "@/lib/api/route";
import { config } from "@/lib/config";
import { sendSmsCode } from "@/lib/kyc/server/sms";
import type { SmsSendResponse } from "@/lib/kyc/types";
import { formatPhone, smsSendSchema } from "@/lib/shared/phone";
import { partnersClient } from "@/lib/upstream/partners";

// POST /api/sms/send – sends a validation code to a Brazilian mobile; refused during the resend cooldown.
export const POST = route({ permission: "sms.send", body: smsSendSchema }, async ({ db, context, body: { phone } }) => {
  const { smsResendCooldownSeconds: cooldownSeconds, secrets } = config();
  const { resendAfterSeconds } = await sendSmsCode(db, partnersClient(), context, {
    phone,
    cooldownSeconds,
    secret: secrets.auditHash.current.secret,
  });
  return json<SmsSendResponse>({ sent: true, phone: formatPhone(phone), resendAfterSeconds });
});
