import { json, route } from "@/lib/api/route";
import { requestLocale } from "@/lib/i18n/request-locale";
import { startKycSession } from "@/lib/kyc/server/kyc";
import type { KycSessionResponse } from "@/lib/kyc/types";
import { kycSessionSchema } from "@/lib/kyc/validation";
import { partnersClient } from "@/lib/upstream/partners";

// POST /api/kyc/sessions – starts a KYC session for a CPF, with a purpose and within the member's quota; answers
// the widget address (never stored), its QR code, the session id and status, and nothing of the person.
export const POST = route({ permission: "kyc.start", body: kycSessionSchema }, async ({ db, request, context, body: { cpf, purpose } }) => {
  // The widget speaks the dashboard's language: the operator hands the link over in that language.
  const lang = requestLocale(request);
  const { qrCode, ...session } = await startKycSession(db, partnersClient(), context, { cpf, lang, purpose });
  return json<KycSessionResponse>({ session, qrCode }, { status: 201 });
});
