"use client";

import type { ChangeEvent } from "react";

import { Field } from "@/components/ui/field";
import { formatCpfPartial } from "@/lib/shared/cpf";

/**
 * A CPF input: accepts any formatting (typed or pasted) and shows it as 000.000.000-00 while typing.
 * Validation belongs to the form (cpfProblem), so the message is in the dashboard's language.
 */
export function CpfField({
  id,
  label,
  hint,
  error,
  value,
  onValueChange,
  onBlur,
  name = "cpf",
  disabled,
}: {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  value: string;
  onValueChange: (value: string) => void;
  onBlur?: () => void;
  name?: string;
  disabled?: boolean;
}) {
  return (
    <Field
      id={id}
      name={name}
      label={label}
      hint={hint}
      error={error}
      value={value}
      disabled={disabled}
      required
      inputMode="numeric"
      autoComplete="off"
      spellCheck={false}
      placeholder="000.000.000-00"
      // Room for formatting characters a paste may carry; the formatter keeps 11 digits.
      maxLength={32}
      className="max-w-xs"
      onChange={(event: ChangeEvent<HTMLInputElement>) => onValueChange(formatCpfPartial(event.target.value))}
      onBlur={onBlur}
    />
  );
}
