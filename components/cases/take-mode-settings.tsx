"use client";

import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { useRefreshingRequest } from "@/components/ui/use-refreshing-request";
import { saveTakeSettings } from "@/lib/cases/routing-requests";
import { TAKE_MODES, type TakeMode } from "@/lib/cases/take-mode";

/**
 * When a member takes an unassigned case: on opening it, on the first decision key, or only by claiming it. Saved on
 * its own; `initial` is what the server read.
 */
export function TakeModeSettings({ initial }: { initial: TakeMode }) {
  const t = useTranslations("cases.routing");
  const save = useRefreshingRequest(saveTakeSettings);
  const [takeMode, setTakeMode] = useState<TakeMode>(initial);
  const [saved, setSaved] = useState(false);
  function submit(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    save.mutate({ takeMode }, { onSuccess: () => setSaved(true) });
  }
  return (
    <form onSubmit={submit} className="space-y-2 rounded-md border border-slate-200 bg-white p-4" aria-labelledby="take-mode-title">
      <fieldset className="space-y-2" aria-describedby="take-mode-hint">
        <legend id="take-mode-title" className="px-1 font-semibold text-slate-900">
          {t("takeTitle")}
        </legend>
        <p id="take-mode-hint" className="text-sm text-slate-600">
          {t("takeHint")}
        </p>
        {TAKE_MODES.map((mode) => (
          <label key={mode} className="flex items-start gap-2 text-sm">
            <input
              type="radio"
              name="take-mode"
              className="mt-0.5 size-4"
              value={mode}
              checked={takeMode === mode}
              onChange={() => {
                setSaved(false);
                setTakeMode(mode);
              }}
            />
            <span>{t(`take.${mode}`)}</span>
          </label>
        ))}
      </fieldset>
      {save.error ? <Alert tone="error" title={save.error.message} /> : null}
      <p role="status" aria-live="polite" className="min-h-5 text-sm text-slate-700">
        {saved ? t("takeSaved") : null}
      </p>
      <Button type="submit" variant="secondary" pending={save.isPending}>
        {t("takeSave")}
      </Button>
    </form>
  );
}
