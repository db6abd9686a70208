"use client";

import { Field } from "@/components/ui/field";
import { MAX_PURPOSE_LENGTH, MIN_PURPOSE_LENGTH, type PurposeProblem } from "@/lib/shared/purpose";

/** What can be wrong with a purpose: the rule's problems (lib/shared/purpose.ts), or the route refused its content. */
export type PurposeFieldProblem = PurposeProblem | "content";

/**
 * The purpose input of the forms that reach a person's data (CPF lookup, KYC session): the reason kept on the
 * audit trail, its problem as the form's sentence (`messages`, given the rule's bounds) tied to the input. The
 * form checks `purposeProblem` on submit and owns the state.
 */
export function PurposeField({
  id,
  label,
  hint,
  value,
  onValueChange,
  problem,
  messages,
  className,
}: {
  id: string;
  label: string;
  hint: string;
  value: string;
  onValueChange: (value: string) => void;
  /** The problem shown under the field, if any. */
  problem?: PurposeFieldProblem;
  messages: (problem: PurposeFieldProblem, bounds: { min: number; max: number }) => string;
  className?: string;
}) {
  return (
    <Field
      id={id}
      name="purpose"
      label={label}
      hint={hint}
      value={value}
      required
      // Room to type past the limit, so the rule's sentence says so rather than the input cutting it short.
      maxLength={MAX_PURPOSE_LENGTH + 50}
      autoComplete="off"
      className={className}
      onChange={(event) => onValueChange(event.target.value)}
      error={problem ? messages(problem, { min: MIN_PURPOSE_LENGTH, max: MAX_PURPOSE_LENGTH }) : undefined}
    />
  );
}
