import { requestLocale } from "@/i18n/request-locale";
import { json, route } from "@/lib/api/route";
import { kycSessionSchema } from "@/lib/kyc/schemas";
import { startKycSession } from "@/lib/kyc/server/kyc";
import type { KycSessionResponse } from "@/lib/kyc/types";
import { partnersClient } from "@/lib/upstream/partners";

// POST /api/kyc/sessions – starts a KYC session for a CPF; answers the widget address (never stored) and its QR code.
export const POST = route({ permission: "kyc.start", body: kycSessionSchema }, async ({ request, context, body: { cpf } }) => {
  // The widget speaks the dashboard's language: the operator hands the link over in that language.
  const lang = requestLocale(request);
  const { qrCode, ...session } = await startKycSession(partnersClient(), context, { cpf, lang });
  return json<KycSessionResponse>({ session, qrCode }, { status: 201 });
});
