// Shared by forms and route handlers: CPF rules (11 digits, two check digits, not all one digit). No zod
// here: client components import these functions, and the field schema built on them is in cpf-schema.ts.

/** Keeps only the digits, so "529.982.247-25", "529 982 247 25" and "52998224725" are the same CPF. */
export function cpfDigits(input: string): string {
  return input.replace(/\D/g, "");
}

function checkDigit(digits: string, length: number): number {
  let sum = 0;
  for (let index = 0; index < length; index += 1) sum += Number(digits[index]) * (length + 1 - index);
  const rest = (sum * 10) % 11;
  return rest === 10 ? 0 : rest;
}

export function isValidCpf(input: string): boolean {
  const digits = cpfDigits(input);
  if (digits.length !== 11 || /^(\d)\1{10}$/.test(digits)) return false;
  return checkDigit(digits, 9) === Number(digits[9]) && checkDigit(digits, 10) === Number(digits[10]);
}

/** "52998224725" → "529.982.247-25"; anything that is not 11 digits is returned unchanged. */
export function formatCpf(input: string): string {
  const digits = cpfDigits(input);
  if (digits.length !== 11) return input;
  return `${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6, 9)}-${digits.slice(9)}`;
}

/** Formats as the user types: "5299822" → "529.982.2". */
export function formatCpfPartial(input: string): string {
  const digits = cpfDigits(input).slice(0, 11);
  const parts = [digits.slice(0, 3), digits.slice(3, 6), digits.slice(6, 9)].filter(Boolean);
  const head = parts.join(".");
  return digits.length > 9 ? `${head}-${digits.slice(9)}` : head;
}

/** Masked for audit and display where the full number is not needed: "***.982.247-**". */
export function maskCpf(input: string): string {
  const digits = cpfDigits(input);
  if (digits.length !== 11) return "***.***.***-**";
  return `***.${digits.slice(3, 6)}.${digits.slice(6, 9)}-**`;
}

export type CpfProblem = "required" | "length" | "repeated" | "check_digits";

/** The CPF rule, as a key the form can translate; cpfSchema (cpf-schema.ts) gives the server its messages. */
export function cpfProblem(input: string): CpfProblem | undefined {
  const digits = cpfDigits(input);
  if (input.trim() === "") return "required";
  if (digits.length !== 11) return "length";
  if (/^(\d)\1{10}$/.test(digits)) return "repeated";
  if (!isValidCpf(digits)) return "check_digits";
  return undefined;
}
