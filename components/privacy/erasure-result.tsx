import { useTranslations } from "next-intl";

import { ERASED_KINDS, type ErasureDto, type ErasureResult } from "@/lib/privacy/erasure";

/*
 * What an erasure erased and kept, and why: shown once a member confirms (./erasure-decisions.tsx) and under each
 * decided request (./erasure-panel.tsx). No directive: the server's list and the browser's island both draw it.
 */

export function ResultView({ erasure, result }: { erasure: ErasureDto; result: ErasureResult }) {
  const t = useTranslations("erasure.result");
  return (
    <section
      aria-labelledby={`erasure-result-${erasure.id}`}
      className="space-y-3 rounded-xl border border-emerald-200 bg-emerald-50 p-5 text-sm text-slate-800"
    >
      <h3 id={`erasure-result-${erasure.id}`} className="text-base font-semibold text-slate-900">
        {t("heading", { document: erasure.documentMasked })}
      </h3>
      <p>{t("summary", { verifications: result.verifications, cases: result.cases })}</p>
      <ResultLists result={result} />
    </section>
  );
}

export function ResultLists({ result }: { result: ErasureResult }) {
  const t = useTranslations("erasure.result");
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <div>
        <h4 className="font-semibold text-slate-900">{t("erasedHeading")}</h4>
        <dl className="mt-1 grid grid-cols-[1fr_auto] gap-x-3 gap-y-1">
          {ERASED_KINDS.map((kind) => (
            <div key={kind} className="contents">
              <dt>{t(`erased.${kind}`)}</dt>
              {/* A kind added since (person_names) is absent from an older erasure's result: it erased none. */}
              <dd className="text-right font-mono tabular-nums">{kind in result.erased ? result.erased[kind] : "—"}</dd>
            </div>
          ))}
        </dl>
      </div>
      <div>
        <h4 className="font-semibold text-slate-900">{t("keptHeading")}</h4>
        <ul className="mt-1 list-disc space-y-1 pl-5">
          {result.kept.map((entry) => (
            <li key={entry.kind}>{t(`kept.${entry.kind}`, { count: entry.count ?? 0 })}</li>
          ))}
        </ul>
      </div>
    </div>
  );
}
