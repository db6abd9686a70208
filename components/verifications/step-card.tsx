import { useTranslations } from "next-intl";

import { useNumber } from "@/components/ui/use-formatters";
import { FACEMATCH_VALID_SIMILARITY, KNOWN_STEPS, type VerificationStep } from "@/lib/upstream/model/verification";

import { GenericValue } from "./generic-value";
import { useNoticeText } from "./labels";
import { ScoreBar } from "./score-bar";
import { StatusBadge, useStepName } from "./status-badge";

/**
 * One step: its state, its measure (liveness score, facematch similarity against the 80 % line) and its
 * notices. A step the contract does not show gets the same card, with whatever it carries.
 */
export function StepCard({ step }: { step: VerificationStep }) {
  const t = useTranslations("verifications.step");
  const tDetail = useTranslations("verifications.detail");
  const stepName = useStepName();
  const number = useNumber();
  const noticeText = useNoticeText();
  const known = (KNOWN_STEPS as readonly string[]).includes(step.name);
  const headingId = `step-${step.name.replace(/[^A-Za-z0-9_-]/g, "_")}`;
  const valid = step.similarity !== undefined && step.similarity >= FACEMATCH_VALID_SIMILARITY;

  return (
    <article
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4"
      data-step={step.name}
    >
      <header className="flex items-start justify-between gap-2">
        <h3 id={headingId} className="text-base font-semibold">
          {stepName(step.name)}
        </h3>
        <span className="sr-only">{t("state")}:</span>
        <StatusBadge status={step.state} />
      </header>
      {!known ? <p className="text-xs text-slate-600">{t("unknownStep")}</p> : null}

      {step.score !== undefined ? (
        // ASSUMPTION (docs/assumptions.md#scores): the contract shows no scale for the liveness score; the sandbox's is 0..100.
        <ScoreBar
          label={t("score")}
          value={step.score}
          max={Math.max(100, step.score)}
          valueText={tDetail("scoreScale", { value: number(step.score), max: number(Math.max(100, step.score)) })}
          emptyText={tDetail("noScore")}
        />
      ) : step.name === "liveness" ? (
        <p className="text-sm text-slate-600">
          {t("score")}: {tDetail("noScore")}
        </p>
      ) : null}

      {step.similarity !== undefined ? (
        <div>
          <ScoreBar
            label={t("similarity")}
            value={step.similarity}
            max={100}
            unit=" %"
            tone={valid ? "good" : "bad"}
            threshold={{ value: FACEMATCH_VALID_SIMILARITY, label: t("threshold", { threshold: FACEMATCH_VALID_SIMILARITY }) }}
            emptyText={tDetail("noScore")}
          />
          <p className="mt-1 text-sm text-slate-800">
            {valid
              ? t("aboveThreshold", { threshold: FACEMATCH_VALID_SIMILARITY })
              : t("belowThreshold", { threshold: FACEMATCH_VALID_SIMILARITY })}
          </p>
        </div>
      ) : step.name === "facematch" ? (
        <p className="text-sm text-slate-600">
          {t("similarity")}: {tDetail("noScore")}
        </p>
      ) : null}

      {Object.keys(step.extra).length > 0 ? (
        <div>
          <h4 className="text-sm font-medium text-slate-800">{t("otherFields")}</h4>
          <dl className="mt-1 space-y-1 text-sm">
            {Object.entries(step.extra).map(([key, value]) => (
              <div key={key} className="flex flex-wrap gap-x-2">
                <dt className="font-mono text-xs text-slate-600">{key}</dt>
                <dd className="min-w-0 text-slate-900">
                  <GenericValue value={value} />
                </dd>
              </div>
            ))}
          </dl>
        </div>
      ) : null}

      <div>
        <h4 className="text-sm font-medium text-slate-800">{t("notices")}</h4>
        {step.notices.length === 0 ? (
          <p className="text-sm text-slate-600">{t("noNotices")}</p>
        ) : (
          <ul className="mt-1 space-y-1 text-sm">
            {step.notices.map((notice, index) => {
              // The catalogue's words in the analyst's language, with the service's own text kept beside.
              const known = noticeText(notice.code);
              return (
                <li
                  key={`${notice.code ?? ""}-${index}`}
                  data-notice={notice.code ?? ""}
                  className="rounded border border-amber-200 bg-amber-50 px-2 py-1 text-amber-950"
                >
                  <span className="block">
                    {notice.code ? <span className="mr-2 font-mono text-xs">{notice.code}</span> : null}
                    {known ?? (notice.withheld ? <span className="italic">{t("noticeWithheld")}</span> : notice.message)}
                  </span>
                  {known && notice.message && notice.message !== known ? (
                    <span className="mt-0.5 block text-xs text-amber-900">
                      {t("upstreamText")}: <q>{notice.message}</q>
                    </span>
                  ) : null}
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </article>
  );
}
