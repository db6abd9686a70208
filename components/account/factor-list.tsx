"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useState } from "react";

import { SuccessNotice } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useRemoveFactorMutation } from "@/lib/account/hooks";
import type { FactorDto, FactorsResponse } from "@/lib/account/types";
import { DATE_TIME_FORMAT } from "@/lib/shared/date-format";

/*
 * The member's confirmed second factors, as a list (it reads at phone width without a sideways scroll).
 * Removing asks first; the server may then want a fresh second factor (401 step_up_required), which
 * apiRequest asks for in place before the removal goes through.
 */
export function FactorList({ data }: { data: FactorsResponse }) {
  const t = useTranslations("account.factors");
  const format = useFormatter();
  const remove = useRemoveFactorMutation();
  const [confirming, setConfirming] = useState<FactorDto | null>(null);
  const [removed, setRemoved] = useState<string | null>(null);
  const when = (iso: string) => format.dateTime(new Date(iso), DATE_TIME_FORMAT);
  const factors = data.factors.filter((factor) => factor.confirmed);

  return (
    <div className="space-y-3">
      <SuccessNotice>{removed ? t("removed", { label: removed }) : null}</SuccessNotice>
      {factors.length === 0 ? (
        <p className="text-sm text-slate-600">{t("empty")}</p>
      ) : (
        <ul aria-label={t("listLabel")} className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {factors.map((factor) => (
            <li key={factor.id} className="flex flex-wrap items-start justify-between gap-3 p-4">
              <div className="min-w-0">
                <p className="font-medium break-words text-slate-900">{factor.label}</p>
                <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm text-slate-700">
                  <dt className="text-slate-500">{t("kind")}</dt>
                  <dd>{t(`kinds.${factor.kind}`)}</dd>
                  <dt className="text-slate-500">{t("added")}</dt>
                  <dd>{when(factor.createdAt)}</dd>
                  <dt className="text-slate-500">{t("lastUsed")}</dt>
                  <dd>{factor.lastUsedAt ? when(factor.lastUsedAt) : t("never")}</dd>
                </dl>
              </div>
              <Button
                variant="secondary"
                aria-label={t("removeLabel", { label: factor.label })}
                onClick={() => {
                  remove.reset();
                  setRemoved(null);
                  setConfirming(factor);
                }}
              >
                {t("remove")}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {factors.length > 0 || data.recoveryCodesLeft > 0 ? (
        <p className="text-sm text-slate-700" data-testid="recovery-codes-left">
          {t("recoveryLeft", { count: data.recoveryCodesLeft })}
        </p>
      ) : null}
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => (open ? undefined : setConfirming(null))}
        title={t("confirmRemove.title", { label: confirming?.label ?? "" })}
        description={t(factors.length === 1 ? "confirmRemove.bodyLast" : "confirmRemove.body")}
        confirmLabel={t("confirmRemove.confirm")}
        cancelLabel={t("confirmRemove.cancel")}
        pending={remove.isPending}
        error={remove.error ? t(remove.error.code === "step_up_required" ? "removeStepUp" : "removeFailed") : null}
        onConfirm={() => {
          if (!confirming) return;
          const label = confirming.label;
          remove.mutate(
            { id: confirming.id },
            {
              onSuccess: () => {
                setConfirming(null);
                setRemoved(label);
              },
            },
          );
        }}
      />
    </div>
  );
}
