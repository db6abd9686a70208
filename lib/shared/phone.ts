import { z } from "zod";

import { parsePhone, smsCodeProblem, type PhoneProblem, type SmsCodeProblem } from "./phone-rules";
import { ruleField } from "./rule-field";

// Shared by the SMS form and POST /api/sms/*: Brazilian mobile numbers with country code.

export * from "./phone-rules";

const PHONE_MESSAGES: Record<PhoneProblem, string> = {
  required: "Phone is required",
  characters: "Phone may hold only digits, spaces, +, ( ), . and -",
  format: "Phone must be written as +55 11 91234-5678 or 11912345678",
  length: "Phone must have the area code and nine digits, with country code +55",
  country: "Phone must be a Brazilian number (+55)",
  area_code: "Phone area code (DDD) does not exist",
  not_mobile: "Phone must be a mobile number (nine digits starting with 9)",
};

/** A phone field: any formatting in, the service's digits out; the problem named when refused. */
export const phoneSchema = ruleField(PHONE_MESSAGES, (value) => {
  const parsed = parsePhone(value);
  return "problem" in parsed ? parsed : parsed.digits;
});

const SMS_CODE_MESSAGES: Record<SmsCodeProblem, string> = {
  required: "Code is required",
  format: "Code must be the 4 to 10 characters received",
};

export const smsCodeSchema = ruleField(SMS_CODE_MESSAGES, (value) => {
  const problem = smsCodeProblem(value);
  return problem ? { problem } : value.replace(/\s/g, "");
});

export const smsSendSchema = z.strictObject({ phone: phoneSchema });
export const smsValidateSchema = z.strictObject({ phone: phoneSchema, code: smsCodeSchema });

export type SmsSendInput = z.input<typeof smsSendSchema>;
export type SmsValidateInput = z.input<typeof smsValidateSchema>;
