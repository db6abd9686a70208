"use client";

import type { ChangeEvent } from "react";

import { Field } from "@/components/ui/field";
import { cpfProblem, formatCpfPartial, type CpfProblem } from "@/lib/shared/cpf";

/** What can be wrong with the CPF a field holds: the rule's problems (lib/shared/cpf.ts), or the route refused it. */
export type CpfFieldProblem = CpfProblem | "server";

/**
 * The one CPF input of every form (lookup, KYC session, titular report, erasure): its label, any formatting
 * accepted (typed or pasted) and shown as 000.000.000-00 while typing, the CPF rule (check digits, repeated
 * digits: `cpfProblem`) checked when the field is left if the form asks for it (`onProblemChange`, which an edit
 * also clears), and the problem as the form's sentence (`messages`, each naming the field), tied to the input for screen readers
 * (aria-invalid, aria-describedby). The form checks `cpfProblem` again on submit and owns the state.
 */
export function CpfField({
  id,
  label,
  hint,
  value,
  onValueChange,
  problem,
  onProblemChange,
  messages,
  name = "cpf",
  disabled,
  className = "max-w-xs",
}: {
  id: string;
  label: string;
  hint?: string;
  value: string;
  onValueChange: (value: string) => void;
  /** The problem shown under the field, if any. */
  problem?: CpfFieldProblem;
  /** Given, the field checks the CPF when it is left (an empty field is not told off until submit) and clears the problem on an edit. */
  onProblemChange?: (problem: CpfProblem | undefined) => void;
  /** The sentence for each problem, in the form's words. */
  messages: (problem: CpfFieldProblem) => string;
  name?: string;
  disabled?: boolean;
  className?: string;
}) {
  return (
    <Field
      id={id}
      name={name}
      label={label}
      hint={hint}
      error={problem ? messages(problem) : undefined}
      value={value}
      disabled={disabled}
      required
      inputMode="numeric"
      autoComplete="off"
      spellCheck={false}
      placeholder="000.000.000-00"
      // Room for formatting characters a paste may carry; the formatter keeps 11 digits.
      maxLength={32}
      className={className}
      onChange={(event: ChangeEvent<HTMLInputElement>) => {
        onValueChange(formatCpfPartial(event.target.value));
        onProblemChange?.(undefined);
      }}
      onBlur={onProblemChange ? () => onProblemChange(value ? cpfProblem(value) : undefined) : undefined}
    />
  );
}
