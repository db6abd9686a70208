"use client";

import { useTranslations } from "next-intl";

import { Button } from "@/components/ui/button";
import { SelectOptions, type SelectChoices } from "@/components/ui/filter-fields";
import { useDateTime } from "@/components/ui/use-formatters";
import type { QueueParams } from "@/lib/cases/queue-requests";
import { AGE_BUCKETS, QUEUE_SORTS, RED_FLAGS } from "@/lib/cases/queue-rules";
import type { CaseQueueResponse } from "@/lib/cases/types";

const selectClass = "rounded-md border border-slate-300 px-2 py-0.5";

/** One of the line's drop-downs, its label beside it; `anyLabel` adds a first choice, "", that leaves the filter out. */
function QueueSelect<Option extends string>({
  label,
  value,
  onChange,
  ...choices
}: { label: string; value: string; onChange: (value: string) => void } & SelectChoices<Option>) {
  return (
    <label className="flex items-center gap-2">
      <span className="font-medium text-slate-800">{label}</span>
      <select className={selectClass} value={value} onChange={(event) => onChange(event.target.value)}>
        <SelectOptions {...choices} />
      </select>
    </label>
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
  const tFlags = useTranslations("cases.flags");
  const dateTime = useDateTime();
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
      <QueueSelect
        label={t("sort")}
        value={params.sort}
        options={QUEUE_SORTS}
        optionLabel={(sort) => t(`sorts.${sort}`)}
        onChange={(sort) => onUpdate({ sort: sort as QueueParams["sort"] })}
      />
      {data?.queues && data.queues.length > 1 ? (
        <QueueSelect
          label={t("routingQueue")}
          value={params.queue_id ?? ""}
          options={data.queues.map((item) => item.id)}
          optionLabel={(queueId) => data.queues?.find((item) => item.id === queueId)?.name ?? queueId}
          anyLabel={t("anyRoutingQueue")}
          onChange={(queueId) => onUpdate({ queue_id: queueId || undefined })}
        />
      ) : null}
      <QueueSelect
        label={t("flag")}
        value={params.flag ?? ""}
        options={RED_FLAGS}
        optionLabel={(flag) => tFlags(flag)}
        anyLabel={t("anyFlag")}
        onChange={(flag) => onUpdate({ flag: (flag || undefined) as QueueParams["flag"] })}
      />
      <QueueSelect
        label={t("age")}
        value={params.age ?? ""}
        options={AGE_BUCKETS}
        optionLabel={(bucket) => t(`ages.${bucket}`)}
        anyLabel={t("anyAge")}
        onChange={(age) => onUpdate({ age: (age || undefined) as QueueParams["age"] })}
      />
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
