"use client";

import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/credentials";
import { useChangePasswordMutation } from "@/lib/staff/hooks";

type Problem = "mismatch" | "tooShort" | "sameAsCurrent" | "wrongCurrent" | "failed";

export function ChangePasswordForm({ nextPath }: { nextPath: string }) {
  const t = useTranslations("auth.changePassword");
  const [problem, setProblem] = useState<Problem | null>(null);
  const mutation = useChangePasswordMutation();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const currentPassword = String(form.get("currentPassword") ?? "");
    const newPassword = String(form.get("newPassword") ?? "");
    if (newPassword.length < MIN_PASSWORD_LENGTH) return setProblem("tooShort");
    if (newPassword !== String(form.get("confirm") ?? "")) return setProblem("mismatch");
    if (newPassword === currentPassword) return setProblem("sameAsCurrent");
    setProblem(null);
    mutation.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => window.location.assign(nextPath),
        onError: (error) => setProblem(error.fields.includes("currentPassword") ? "wrongCurrent" : "failed"),
      },
    );
  }

  return (
    <div className="space-y-6">
      <div aria-live="assertive">{problem ? <Alert tone="error">{t(problem)}</Alert> : null}</div>
      <form onSubmit={onSubmit} className="space-y-4" noValidate>
        <Field
          label={t("current")}
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          required
          error={problem === "wrongCurrent" ? t("wrongCurrent") : undefined}
        />
        <Field
          label={t("new")}
          name="newPassword"
          type="password"
          autoComplete="new-password"
          required
          minLength={MIN_PASSWORD_LENGTH}
          hint={t("newHint")}
        />
        <Field label={t("confirm")} name="confirm" type="password" autoComplete="new-password" required />
        <Button type="submit" pending={mutation.isPending} className="w-full">
          {t("submit")}
        </Button>
      </form>
    </div>
  );
}
