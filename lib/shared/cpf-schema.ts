import { z } from "zod";

import { cpfDigits, cpfProblem, type CpfProblem } from "./cpf";

// Server side: the CPF rule of lookup-rules.ts (which the forms run without zod) as a zod field (route
// handlers, the upstream client).

const CPF_MESSAGES: Record<CpfProblem, string> = {
  required: "CPF is required",
  length: "CPF must have 11 digits",
  repeated: "CPF cannot be one repeated digit",
  check_digits: "CPF check digits are wrong",
};

/** A CPF field: accepts any formatting, yields the 11 digits, and names the problem when it refuses. */
export const cpfSchema = z.string({ error: CPF_MESSAGES.required }).transform((value, context) => {
  const problem = cpfProblem(value);
  if (problem) {
    context.addIssue({ code: "custom", message: CPF_MESSAGES[problem], params: { problem } });
    return z.NEVER;
  }
  return cpfDigits(value);
});
