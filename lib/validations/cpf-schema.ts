import { z } from "zod";

import { cpfDigits, isValidCpf } from "./cpf";

// Server side: the CPF rules of cpf.ts as a zod field (route handlers, the upstream client).

/** A CPF field: accepts any formatting, yields the 11 digits, and names the problem when it refuses. */
export const cpfSchema = z
  .string({ error: "CPF is required" })
  .trim()
  .min(1, { message: "CPF is required", abort: true })
  .refine((value) => cpfDigits(value).length === 11, { message: "CPF must have 11 digits", abort: true })
  .refine((value) => !/^(\d)\1{10}$/.test(cpfDigits(value)), { message: "CPF cannot be one repeated digit", abort: true })
  .refine(isValidCpf, "CPF check digits are wrong")
  .transform(cpfDigits);
