"use client";

import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { useRefreshingRequest } from "@/components/ui/use-refreshing-request";
import { runScreening, saveScreeningBudget } from "@/lib/monitoring/requests";
import { budgetProblem, MAX_DAILY_BUDGET } from "@/lib/monitoring/rules";
import type { ScreeningBudget } from "@/lib/monitoring/types";

/**
 * The ongoing screening's daily budget of upstream calls, what today spent, and a run now. Saved on its own; `budget` is
 * what the server read, drawn again after a save or a run.
 */
export function ScreeningSettings({ budget }: { budget: ScreeningBudget }) {
  const t = useTranslations("monitoring");
  const save = useRefreshingRequest(saveScreeningBudget);
  const run = useRefreshingRequest(runScreening);
  const [text, setText] = useState(String(budget.dailyBudget));
  const [problem, setProblem] = useState<"whole_number" | "too_large" | null>(null);
  const [saved, setSaved] = useState(false);
  function submit(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    const found = budgetProblem(text);
    setProblem(found);
    if (found) return;
    save.mutate({ dailyBudget: Number(text.trim()) }, { onSuccess: () => setSaved(true) });
  }
  return (
    <section className="space-y-3 rounded-md border border-slate-200 bg-white p-4" aria-labelledby="screening-title">
      <h2 id="screening-title" className="font-semibold text-slate-900">
        {t("title")}
      </h2>
      <p className="text-sm text-slate-600">{t("intro")}</p>
      <form onSubmit={submit} noValidate className="space-y-2">
        <Field
          label={t("budget")}
          hint={t("budgetHint")}
          error={problem ? t(`problems.${problem}`, { max: MAX_DAILY_BUDGET }) : undefined}
          inputMode="numeric"
          className="max-w-xs"
          value={text}
          onChange={(event) => {
            setSaved(false);
            setText(event.target.value);
          }}
        />
        <p className="text-sm text-slate-700">{t("spent", { spent: budget.spentToday, left: budget.left })}</p>
        {save.error ? <Alert tone="error" title={save.error.message} /> : null}
        <p role="status" aria-live="polite" className="min-h-5 text-sm text-slate-700">
          {saved ? t("saved") : null}
        </p>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" variant="secondary" pending={save.isPending}>
            {t("save")}
          </Button>
          <Button type="button" variant="secondary" pending={run.isPending} onClick={() => run.mutate(undefined)}>
            {t("runNow")}
          </Button>
        </div>
      </form>
      {run.error ? <Alert tone="error" title={run.error.message} /> : null}
      <p role="status" aria-live="polite" className="min-h-5 text-sm text-slate-700">
        {run.data
          ? run.data.ran
            ? t("ran", { screened: run.data.screened, alerts: run.data.alertsOpened, calls: run.data.calls, left: run.data.budgetLeft })
            : t("busy")
          : null}
      </p>
    </section>
  );
}
