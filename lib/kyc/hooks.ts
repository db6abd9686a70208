import { useMutation } from "@tanstack/react-query";

import type { KycSessionResponse, SmsSendResponse, SmsValidateResponse } from "@/lib/kyc/types";
import type { KycSessionInput } from "@/lib/kyc/validation";
import { apiRequest } from "@/lib/shared/api-client/api-request";
import type { SmsSendInput, SmsValidateInput } from "@/lib/shared/phone";

/*
 * KYC sessions and the SMS phone check in the browser: writes only, so mutations. The widget address
 * carries a token: it stays in the component that shows it, in memory.
 */

export const kycKeys = {
  all: ["kyc"] as const,
  session: () => [...kycKeys.all, "session"] as const,
  smsSend: () => [...kycKeys.all, "sms", "send"] as const,
  smsValidate: () => [...kycKeys.all, "sms", "validate"] as const,
};

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
  return useMutation({ mutationKey: kycKeys.session(), mutationFn: postKycSession });
}

export function useSendSmsCode() {
  return useMutation({ mutationKey: kycKeys.smsSend(), mutationFn: postSmsSend });
}

export function useValidateSmsCode() {
  return useMutation({ mutationKey: kycKeys.smsValidate(), mutationFn: postSmsValidate });
}
