"use client";

import { useRef, useState, type FormEvent } from "react";

import { useCreateVerification } from "@/lib/verifications/hooks";
import { DEFAULT_SCHEMA_VERSION, parseCreateVerificationInput, type ProblemCode } from "@/lib/verifications/rules";

/*
 * The create form's state. It validates with the same parser as POST /api/verifications; the body has
 * exactly schemaVersion, refId and document, and flowPublicId when one is chosen (the parser is strict and the
 * upstream client builds its body field by field), so `integration_origin_public_id` cannot be sent from here.
 */

export type FieldName = "schemaVersion" | "refId" | "document.type" | "document.number" | "flowPublicId";
const FIELDS: FieldName[] = ["schemaVersion", "refId", "document.type", "document.number", "flowPublicId"];

// The service names fields in snake_case; the form in camelCase.
const UPSTREAM_FIELD: Record<string, FieldName> = {
  schema_version: "schemaVersion",
  ref_id: "refId",
  "document.type": "document.type",
  "document.number": "document.number",
  document: "document.number",
  flow_public_id: "flowPublicId",
};

function fieldOf(path: string): FieldName | undefined {
  if ((FIELDS as string[]).includes(path)) return path as FieldName;
  return UPSTREAM_FIELD[path];
}

export type ErrorKind = "required" | "tooLong" | "invalidCpf" | "invalid";

const KIND: Partial<Record<ProblemCode, ErrorKind>> = { required: "required", too_long: "tooLong", invalid_cpf: "invalidCpf" };

const EMPTY = { schemaVersion: DEFAULT_SCHEMA_VERSION, refId: "", documentType: "cpf", documentNumber: "", flowPublicId: "" };

/**
 * `defaultFlow`: the connection's first flow, sent when none is chosen (lib/connections/flows.ts); none: the field is
 * free. `onCreated`: what else follows a creation (the list draws its view again).
 */
export function useCreateVerificationForm(defaultFlow: string | null, onCreated?: () => void) {
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<FieldName, ErrorKind>>>({});
  const mutation = useCreateVerification();
  const formRef = useRef<HTMLFormElement>(null);

  const reset = () => {
    setValues(EMPTY);
    setErrors({});
    mutation.reset();
  };

  const focusFirstInvalid = (names: FieldName[]) => {
    const first = FIELDS.find((name) => names.includes(name));
    if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = {
      schemaVersion: values.schemaVersion,
      refId: values.refId,
      document: { type: values.documentType, number: values.documentNumber },
      // The connection's default when none is chosen; else left out when empty (the integration's default flow).
      ...(values.flowPublicId.trim() || defaultFlow ? { flowPublicId: values.flowPublicId.trim() || defaultFlow } : {}),
    };
    const parsed = parseCreateVerificationInput(input);
    if (!parsed.ok) {
      const next: Partial<Record<FieldName, ErrorKind>> = {};
      for (const problem of parsed.problems) {
        const name = fieldOf(problem.field);
        if (name && !next[name]) next[name] = (problem.code && KIND[problem.code]) ?? "invalid";
      }
      setErrors(next);
      focusFirstInvalid(Object.keys(next) as FieldName[]);
      return;
    }
    setErrors({});
    mutation.mutate(parsed.value, {
      onSuccess: () => onCreated?.(),
      onError: (error) => {
        const rejected = error.fields.map(fieldOf).filter((name): name is FieldName => name !== undefined);
        if (rejected.length) {
          setErrors(Object.fromEntries(rejected.map((name) => [name, "invalid" as const])));
          focusFirstInvalid(rejected);
        }
      },
    });
  };

  /** Changes one value of the form. */
  const change = (patch: Partial<typeof EMPTY>) => setValues({ ...values, ...patch });

  return { values, change, errors, mutation, formRef, reset, submit };
}
