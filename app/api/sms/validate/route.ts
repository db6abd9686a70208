import { json, route } from "@/lib/api/route";
import { validateSmsCode } from "@/lib/kyc/server/sms";
import type { SmsValidateResponse } from "@/lib/kyc/types";
import { formatPhone, smsValidateSchema } from "@/lib/shared/phone";
import { partnersClient } from "@/lib/upstream/partners";

// POST /api/sms/validate – checks the code the person read out; a wrong or expired code is a 400 naming `code`.
export const POST = route({ permission: "sms.send", body: smsValidateSchema }, async ({ context, body: { phone, code } }) => {
  await validateSmsCode(partnersClient(), context, { phone, code });
  return json<SmsValidateResponse>({ valid: true, phone: formatPhone(phone) });
});
