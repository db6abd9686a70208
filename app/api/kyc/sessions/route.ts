import { toErrorResponse } from "@/lib/api/errors";
import { requireUser } from "@/lib/auth/require-role";
import { auditContext, noStoreJson, readJson, requestLocale } from "@/lib/partners-ops/http";
import { startKycSession } from "@/lib/partners-ops/kyc";
import type { KycSessionResponse } from "@/lib/partners-ops/types";
import { partnersClient } from "@/lib/upstream/partners";
import { kycSessionSchema } from "@/lib/validations/lookups";

// POST /api/kyc/sessions – starts a KYC session for a CPF; answers the widget address (never stored) and its QR code.
export async function POST(request: Request) {
  try {
    const user = await requireUser(request);
    const { cpf } = kycSessionSchema.parse(await readJson(request));
    // The widget speaks the dashboard's language: the operator hands the link over in that language.
    const lang = requestLocale(request);
    const { qrCode, ...session } = await startKycSession(partnersClient(), { ...auditContext(user, request), cpf, lang });
    return noStoreJson<KycSessionResponse>({ session, qrCode }, { status: 201 });
  } catch (error) {
    return toErrorResponse(error);
  }
}
