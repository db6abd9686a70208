import { useFormatter, useTranslations } from "next-intl";

import type { FactorsResponse } from "@/lib/account/types";
import { DATE_TIME_FORMAT } from "@/lib/shared/date-format";

import { FactorActions, FactorNotice, RemoveFactorButton } from "./factor-actions";

/*
 * The member's confirmed second factors, drawn on the server, as a list (it reads at phone width without a sideways
 * scroll); each row's remove button is an island asking FactorActions (./factor-actions.tsx), which confirms first.
 */
export function FactorList({ data }: { data: FactorsResponse }) {
  const t = useTranslations("account.factors");
  const format = useFormatter();
  const when = (iso: string) => format.dateTime(new Date(iso), DATE_TIME_FORMAT);
  const factors = data.factors.filter((factor) => factor.confirmed);

  return (
    <FactorActions count={factors.length}>
      <div className="space-y-3">
        <FactorNotice />
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
                <RemoveFactorButton factor={{ id: factor.id, label: factor.label }} />
              </li>
            ))}
          </ul>
        )}
        {factors.length > 0 || data.recoveryCodesLeft > 0 ? (
          <p className="text-sm text-slate-700" data-testid="recovery-codes-left">
            {t("recoveryLeft", { count: data.recoveryCodesLeft })}
          </p>
        ) : null}
      </div>
    </FactorActions>
  );
}
