import { cpfDigits, cpfProblem, type CpfProblem } from "./cpf";
import { ruleField } from "./rule-field";

// Server side: the CPF rule of lookup-rules.ts (which the forms run without zod) as a zod field (route
// handlers, the upstream client).

const CPF_MESSAGES: Record<CpfProblem, string> = {
  required: "CPF is required",
  length: "CPF must have 11 digits",
  repeated: "CPF cannot be one repeated digit",
  check_digits: "CPF check digits are wrong",
};

/** A CPF field: accepts any formatting, yields the 11 digits, and names the problem when it refuses. */
export const cpfSchema = ruleField(CPF_MESSAGES, (value) => {
  const problem = cpfProblem(value);
  return problem ? { problem } : cpfDigits(value);
});
