"use client";

import { useTranslations } from "next-intl";

import { Button } from "@/components/ui/button";
import { useDateTime } from "@/components/ui/use-formatters";
import type { QueueParams } from "@/lib/cases/hooks";
import { AGE_BUCKETS, QUEUE_SORTS, RED_FLAGS } from "@/lib/cases/rules";
import type { CaseQueueResponse } from "@/lib/cases/types";

const selectClass = "rounded-md border border-slate-300 px-2 py-0.5";

function FlagSelect({
  value,
  onChange,
  anyLabel,
}: {
  value: QueueParams["flag"];
  onChange: (flag: QueueParams["flag"]) => void;
  anyLabel: string;
}) {
  const t = useTranslations("cases.flags");
  return (
    <select
      className={selectClass}
      value={value ?? ""}
      onChange={(event) => onChange((event.target.value || undefined) as QueueParams["flag"])}
    >
      <option value="">{anyLabel}</option>
      {RED_FLAGS.map((flag) => (
        <option key={flag} value={flag}>
          {t(flag)}
        </option>
      ))}
    </select>
  );
}

/**
 * The queue's sort and filters on one line (each label beside its field): the queue's rows start high on the
 * first screen. A period (from the overview's figures) shows as a chip that clears it; the total ends the line.
 */
export function CaseQueueFilters({
  params,
  data,
  onUpdate,
}: {
  params: QueueParams;
  data: CaseQueueResponse | undefined;
  onUpdate: (next: Partial<QueueParams>) => void;
}) {
  const t = useTranslations("cases.queue");
  const dateTime = useDateTime();
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
      <label className="flex items-center gap-2">
        <span className="font-medium text-slate-800">{t("sort")}</span>
        <select
          className={selectClass}
          value={params.sort}
          onChange={(event) => onUpdate({ sort: event.target.value as QueueParams["sort"] })}
        >
          {QUEUE_SORTS.map((sort) => (
            <option key={sort} value={sort}>
              {t(`sorts.${sort}`)}
            </option>
          ))}
        </select>
      </label>
      {data?.queues && data.queues.length > 1 ? (
        <label className="flex items-center gap-2">
          <span className="font-medium text-slate-800">{t("routingQueue")}</span>
          <select
            className={selectClass}
            value={params.queue_id ?? ""}
            onChange={(event) => onUpdate({ queue_id: event.target.value || undefined })}
          >
            <option value="">{t("anyRoutingQueue")}</option>
            {data.queues.map((item) => (
              <option key={item.id} value={item.id}>
                {item.name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <label className="flex items-center gap-2">
        <span className="font-medium text-slate-800">{t("flag")}</span>
        <FlagSelect value={params.flag} onChange={(flag) => onUpdate({ flag })} anyLabel={t("anyFlag")} />
      </label>
      <label className="flex items-center gap-2">
        <span className="font-medium text-slate-800">{t("age")}</span>
        <select
          className={selectClass}
          value={params.age ?? ""}
          onChange={(event) => onUpdate({ age: (event.target.value || undefined) as QueueParams["age"] })}
        >
          <option value="">{t("anyAge")}</option>
          {AGE_BUCKETS.map((bucket) => (
            <option key={bucket} value={bucket}>
              {t(`ages.${bucket}`)}
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          checked={params.overdue === "true"}
          onChange={(event) => onUpdate({ overdue: event.target.checked ? "true" : undefined })}
        />
        <span>{t("overdueOnly")}</span>
      </label>
      {params.closed_from || params.closed_to || params.disagreement ? (
        <p className="flex items-center gap-2 rounded-md bg-slate-100 px-2 py-1 text-slate-800" data-testid="period-filter">
          <span>
            {params.closed_from && params.closed_to
              ? t("closedBetween", { from: dateTime(params.closed_from) ?? "", to: dateTime(params.closed_to) ?? "" })
              : null}
            {params.disagreement === "true" ? ` ${t("disagreementOnly")}` : null}
          </span>
          <Button variant="secondary" onClick={() => onUpdate({ closed_from: undefined, closed_to: undefined, disagreement: undefined })}>
            {t("clearPeriod")}
          </Button>
        </p>
      ) : null}
      {data ? (
        <p className="ml-auto text-slate-700" aria-live="polite">
          {t("total", { count: data.total })}
        </p>
      ) : null}
    </div>
  );
}
