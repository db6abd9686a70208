import { toErrorResponse } from "@/lib/api/errors";
import { requireUser } from "@/lib/auth/require-role";
import { auditContext, noStoreJson, readJson } from "@/lib/partners-ops/http";
import { validateSmsCode } from "@/lib/partners-ops/sms";
import type { SmsValidateResponse } from "@/lib/partners-ops/types";
import { partnersClient } from "@/lib/upstream/partners";
import { formatPhone, smsValidateSchema } from "@/lib/validations/phone";

// POST /api/sms/validate – checks the code the person read out; a wrong or expired code is a 400 naming `code`.
export async function POST(request: Request) {
  try {
    const user = await requireUser(request);
    const { phone, code } = smsValidateSchema.parse(await readJson(request));
    await validateSmsCode(partnersClient(), { ...auditContext(user, request), phone, code });
    return noStoreJson<SmsValidateResponse>({ valid: true, phone: formatPhone(phone) });
  } catch (error) {
    return toErrorResponse(error);
  }
}
