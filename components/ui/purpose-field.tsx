"use client";

import { Field, type FieldProps } from "@/components/ui/field";
import { MAX_PURPOSE_LENGTH, MIN_PURPOSE_LENGTH, type PurposeProblem } from "@/lib/shared/purpose";

/** What can be wrong with a purpose: the rule's problems (lib/shared/purpose.ts), or the route refused its content. */
export type PurposeFieldProblem = PurposeProblem | "content";

/**
 * The purpose input of the forms that reach a person's data (CPF lookup, KYC session): the reason kept on the
 * audit trail, its problem as the form's sentence (`messages`, given the rule's bounds) tied to the input. The
 * form checks `purposeProblem` on submit and owns the state.
 */
export function PurposeField({
  onValueChange,
  problem,
  messages,
  ...field
}: Pick<FieldProps, "id" | "label" | "hint" | "value" | "className"> & {
  onValueChange: (value: string) => void;
  /** The problem shown under the field, if any. */
  problem?: PurposeFieldProblem;
  messages: (problem: PurposeFieldProblem, bounds: { min: number; max: number }) => string;
}) {
  return (
    <Field
      {...field}
      name="purpose"
      required
      // Room to type past the limit, so the rule's sentence says so rather than the input cutting it short.
      maxLength={MAX_PURPOSE_LENGTH + 50}
      autoComplete="off"
      onChange={(event) => onValueChange(event.target.value)}
      error={problem ? messages(problem, { min: MIN_PURPOSE_LENGTH, max: MAX_PURPOSE_LENGTH }) : undefined}
    />
  );
}
