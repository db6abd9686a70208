// Brazilian mobile numbers with country code, and the SMS code: the rules, without zod (client
// components import them); phone.ts builds the route handlers' schemas on them.

export const BRAZIL_COUNTRY_CODE = "55";

/** Brazilian area codes (DDD) in use. */
const AREA_CODES = new Set([
  11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 24, 27, 28, 31, 32, 33, 34, 35, 37, 38, 41, 42, 43, 44, 45, 46, 47, 48, 49, 51, 53, 54, 55,
  61, 62, 63, 64, 65, 66, 67, 68, 69, 71, 73, 74, 75, 77, 79, 81, 82, 83, 84, 85, 86, 87, 88, 89, 91, 92, 93, 94, 95, 96, 97, 98, 99,
]);

export type PhoneProblem = "required" | "characters" | "format" | "length" | "country" | "area_code" | "not_mobile";

/**
 * The shapes a phone is typed in, and nothing else: an optional "+" or "00" prefix, then digits grouped by
 * single spaces, dots or hyphens, the area code optionally in parentheses. A CR/LF, a tag, a letter or
 * any other character is refused rather than stripped, so "\r\nX: y11912345678" is never read as a number.
 */
const PHONE_SHAPE = /^(?:\+|00)?[ ]?(?:\d{2}[ .-]?)?(?:\(\d{2}\)|\d{2})[ .-]?\d{4,5}[ .-]?\d{4}$/;

export function phoneDigits(input: string): string {
  return input.replace(/\D/g, "");
}

/**
 * The number as the service wants it (digits with country code, e.g. "5511912345678"), or the problem.
 * Accepts "+55 11 91234-5678", "(11) 91234-5678", "5511912345678" and "11912345678" (a national number
 * gets the Brazilian country code). A mobile number is the area code then nine digits starting with 9.
 */
export function parsePhone(input: string): { digits: string } | { problem: PhoneProblem } {
  const value = input.trim();
  if (value === "") return { problem: "required" };
  if (!/^[\d ()+.-]+$/.test(value)) return { problem: "characters" };
  let digits = phoneDigits(value);
  const international = value.startsWith("+") || value.startsWith("00");
  if (value.startsWith("00")) digits = digits.slice(2);
  if (!international && digits.length === 11) digits = `${BRAZIL_COUNTRY_CODE}${digits}`;
  if (digits.length < 12 || digits.length > 13)
    return { problem: international && !digits.startsWith(BRAZIL_COUNTRY_CODE) ? "country" : "length" };
  if (!digits.startsWith(BRAZIL_COUNTRY_CODE)) return { problem: "country" };
  if (!AREA_CODES.has(Number(digits.slice(2, 4)))) return { problem: "area_code" };
  // Twelve digits is a landline (eight digits after the area code); mobiles have nine, starting with 9.
  if (digits.length !== 13 || digits[4] !== "9") return { problem: "not_mobile" };
  // The right digits in a shape no one types ("+55 1)1 9-1.2 3", "5+511…") are a mistake, not a number.
  if (!PHONE_SHAPE.test(value)) return { problem: "format" };
  return { digits };
}

/** "5511912345678" → "+55 11 91234-5678"; anything else unchanged. */
export function formatPhone(input: string): string {
  const parsed = parsePhone(input);
  if ("problem" in parsed) return input;
  const d = parsed.digits;
  return `+${d.slice(0, 2)} ${d.slice(2, 4)} ${d.slice(4, 9)}-${d.slice(9)}`;
}

/** Formats as the user types: "+5511912" → "+55 11 912", "1191234" → "11 91234". */
export function formatPhonePartial(input: string): string {
  const international = input.trimStart().startsWith("+");
  const digits = phoneDigits(input).slice(0, international ? 13 : 11);
  const national = international ? digits.slice(2) : digits;
  const area = national.slice(0, 2);
  const first = national.slice(2, 7);
  const last = national.slice(7, 11);
  let out = area;
  if (first) out += ` ${first}`;
  if (last) out += `-${last}`;
  if (!international) return out;
  const country = digits.slice(0, 2);
  return national ? `+${country} ${out}` : `+${country}`;
}

/** For the audit trail and messages: "+55 11 *****-5678". */
export function maskPhone(input: string): string {
  const parsed = parsePhone(input);
  if ("problem" in parsed) return "+** ** *****-****";
  const d = parsed.digits;
  return `+${d.slice(0, 2)} ${d.slice(2, 4)} *****-${d.slice(9)}`;
}

export type SmsCodeProblem = "required" | "format";

export function smsCodeProblem(input: string): SmsCodeProblem | undefined {
  const value = input.replace(/\s/g, "");
  if (value === "") return "required";
  // ASSUMPTION (docs/assumptions.md#sms-code): neither the contract nor the reference shows the code's format
  // (a string); the sandbox sends six digits. The dashboard's one SMS code rule (forms, API and client).
  if (!/^[A-Za-z0-9]{4,10}$/.test(value)) return "format";
  return undefined;
}
