"use client";

import { useTranslations } from "next-intl";

import { Field } from "@/components/ui/field";
import { DEFAULT_GRACE_HOURS, MAX_GRACE_HOURS } from "@/lib/connections/key-life";
import type { ConnectionSummary } from "@/lib/connections/types";

/*
 * The key's fields of the connection form: the key (a password field, sent once), the day it expires as the
 * provider's console shows it (optional: a provider key without one is taken to expire a year on, the documented
 * default), and, when a key is replaced, how long the provider keeps the old one working (its grace period).
 */
export function ConnectionKeyFields({
  prefix,
  editing,
  fieldError,
}: {
  prefix: string;
  editing?: ConnectionSummary;
  fieldError: (field: string) => string | undefined;
}) {
  const t = useTranslations("connections");
  return (
    <>
      <Field
        id={`${prefix}-key`}
        name="coreApiKey"
        type="password"
        autoComplete="off"
        label={editing ? t("fields.newKey") : t("fields.key")}
        hint={editing ? t("fields.newKeyHint", { hint: editing.keyHint }) : t("fields.keyHint")}
        required={!editing}
        error={fieldError("coreApiKey")}
      />
      <Field
        id={`${prefix}-expires`}
        name="coreKeyExpiresAt"
        type="date"
        label={t("fields.expiresAt")}
        hint={t("fields.expiresAtHint")}
        error={fieldError("coreKeyExpiresAt")}
      />
      {editing ? (
        <Field
          id={`${prefix}-grace`}
          name="graceHours"
          type="number"
          inputMode="numeric"
          min={0}
          max={MAX_GRACE_HOURS}
          placeholder={String(DEFAULT_GRACE_HOURS)}
          label={t("fields.graceHours")}
          hint={t("fields.graceHoursHint", { hours: DEFAULT_GRACE_HOURS, most: MAX_GRACE_HOURS })}
          error={fieldError("graceHours")}
        />
      ) : null}
    </>
  );
}
