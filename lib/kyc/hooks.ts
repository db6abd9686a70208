import type { KycSessionResponse, SmsSendResponse, SmsValidateResponse } from "@/lib/kyc/types";
import type { KycSessionInput } from "@/lib/kyc/validation";
import { apiRequest } from "@/lib/shared/api-client/api-request";
import { useRequest } from "@/lib/shared/api-client/use-request";
import type { SmsSendInput, SmsValidateInput } from "@/lib/shared/phone";

/*
 * KYC sessions and the SMS phone check in the browser: writes only, each a request its form sends
 * (lib/shared/api-client/use-request.ts), never a cached query. The widget address carries a token: it stays in the
 * component that shows it, in memory.
 */

export function postKycSession(input: KycSessionInput): Promise<KycSessionResponse> {
  return apiRequest("/api/kyc/sessions", { method: "POST", body: input });
}

export function postSmsSend(input: SmsSendInput): Promise<SmsSendResponse> {
  return apiRequest("/api/sms/send", { method: "POST", body: input });
}

export function postSmsValidate(input: SmsValidateInput): Promise<SmsValidateResponse> {
  return apiRequest("/api/sms/validate", { method: "POST", body: input });
}

export function useStartKycSession() {
  return useRequest(postKycSession);
}

export function useSendSmsCode() {
  return useRequest(postSmsSend);
}

export function useValidateSmsCode() {
  return useRequest(postSmsValidate);
}
