"use client";

import { useTranslations } from "next-intl";
import { usePathname, useRouter } from "next/navigation";
import { useState } from "react";

import { BulkBar } from "@/components/cases/bulk-bar";
import { CaseQueueTable } from "@/components/cases/case-queue-table";
import { ShortcutsDialog } from "@/components/cases/shortcuts-dialog";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { useDateTime } from "@/components/ui/use-formatters";
import { ApiErrorState } from "@/components/verifications/error-state";
import { SaveViewDialog } from "@/components/views/save-view-dialog";
import { hasPermission, type Permission } from "@/lib/auth/permissions";
import { useCaseQueue, useSyncCases, type QueueParams } from "@/lib/cases/hooks";
import { queueContextQuery } from "@/lib/cases/queue-context";
import { useRouting } from "@/lib/cases/routing-hooks";
import { AGE_BUCKETS, QUEUE_SORTS, QUEUES, RED_FLAGS } from "@/lib/cases/rules";

export function CasesPageClient({ initial, viewer }: { initial: QueueParams; viewer: { id: string; permissions: readonly Permission[] } }) {
  const t = useTranslations("cases.queue");
  const router = useRouter();
  const pathname = usePathname();
  const [params, setParams] = useState<QueueParams>(initial);
  // A link to other filters (a saved view in the navigation) renders this page again with a new `initial`:
  // follow it (adjusted while rendering, not in an effect). Our own `update` leads to the same values.
  const [initialSeen, setInitialSeen] = useState(initial);
  if (JSON.stringify(initial) !== JSON.stringify(initialSeen)) {
    setInitialSeen(initial);
    setParams(initial);
  }
  const [helpOpen, setHelpOpen] = useState(false);
  const dateTime = useDateTime();
  const queue = useCaseQueue(params);
  const sync = useSyncCases();
  const canAssign = hasPermission(viewer, "cases.assign");
  const canWork = hasPermission(viewer, "cases.work");
  // Assignees for the bulk bar: the routing's staff, which only cases.assign holders read.
  const routing = useRouting(canAssign);
  const [picked, setPicked] = useState<Set<string>>(() => new Set());

  // State lives in the URL too, so a reload or a shared link shows the same queue.
  function update(next: Partial<QueueParams>) {
    // Another page or filter: a pick the analyst can no longer see is not acted on.
    setPicked(new Set());
    const merged = { ...params, page: 1, ...next };
    setParams(merged);
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(merged))
      if (value !== undefined && !(key === "page" && value === 1)) search.set(key, String(value));
    router.replace(`${pathname}?${search.toString()}`, { scroll: false });
  }

  const data = queue.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.perPage)) : 1;
  return (
    <div className="space-y-2">
      {/* The view's buttons beside the title, not on a line of their own: at 1440×900 that line cost a row of cases. */}
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0 flex-1 basis-96">
          <h1 className="text-xl font-semibold text-slate-900">{t("title")}</h1>
          <p className="text-sm text-slate-600">
            {t("intro")} {t("keyboardHint")}
          </p>
        </div>
        <div className="flex flex-wrap items-start gap-2">
          <SaveViewDialog scope="cases" />
          {hasPermission(viewer, "cases.assign") ? (
            <Button variant="secondary" pending={sync.isPending} onClick={() => sync.mutate()}>
              {sync.isPending ? t("syncing") : t("sync")}
            </Button>
          ) : null}
        </div>
      </div>
      {sync.data ? (
        <p role="status" className="text-sm text-slate-700">
          {sync.data.ran ? t("synced", { seen: sync.data.seen, opened: sync.data.opened, closed: sync.data.closed }) : t("syncSkipped")}
        </p>
      ) : null}
      {sync.error ? <Alert tone="error" title={sync.error.message} /> : null}

      <nav aria-label={t("tabs.label")}>
        <ul className="flex flex-wrap gap-1 border-b border-slate-200">
          {QUEUES.map((name) => (
            <li key={name}>
              <button
                type="button"
                aria-current={params.queue === name ? "page" : undefined}
                onClick={() => update({ queue: name })}
                className={`rounded-t-md px-3 py-2 text-sm font-medium ${params.queue === name ? "border-b-2 border-brand-700 text-brand-800" : "text-slate-700 hover:bg-slate-100"}`}
              >
                {t(`tabs.${name}`)}
                {data ? <span className="ml-1 text-xs text-slate-600">({data.counts[name]})</span> : null}
              </button>
            </li>
          ))}
        </ul>
      </nav>

      {/* The filters on one line (each label beside its field): the queue's rows start high on the first screen. */}
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
        <label className="flex items-center gap-2">
          <span className="font-medium text-slate-800">{t("sort")}</span>
          <select
            className="rounded-md border border-slate-300 px-2 py-0.5"
            value={params.sort}
            onChange={(event) => update({ sort: event.target.value as QueueParams["sort"] })}
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
              className="rounded-md border border-slate-300 px-2 py-0.5"
              value={params.queue_id ?? ""}
              onChange={(event) => update({ queue_id: event.target.value || undefined })}
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
          <FlagSelect value={params.flag} onChange={(flag) => update({ flag })} anyLabel={t("anyFlag")} />
        </label>
        <label className="flex items-center gap-2">
          <span className="font-medium text-slate-800">{t("age")}</span>
          <select
            className="rounded-md border border-slate-300 px-2 py-0.5"
            value={params.age ?? ""}
            onChange={(event) => update({ age: (event.target.value || undefined) as QueueParams["age"] })}
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
            onChange={(event) => update({ overdue: event.target.checked ? "true" : undefined })}
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
            <Button variant="secondary" onClick={() => update({ closed_from: undefined, closed_to: undefined, disagreement: undefined })}>
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

      {queue.isError ? (
        <ApiErrorState error={queue.error} onRetry={() => void queue.refetch()} retrying={queue.isFetching} />
      ) : data ? (
        <>
          {canWork && data.items.length > 0 ? (
            <BulkBar
              picked={picked}
              onChange={setPicked}
              queues={data.queues ?? []}
              staff={routing.data?.staff ?? []}
              canAssign={canAssign}
            />
          ) : null}
          <CaseQueueTable
            items={data.items}
            viewerId={viewer.id}
            context={queueContextQuery(params)}
            onHelp={() => setHelpOpen(true)}
            bulk={canWork ? { picked, onChange: setPicked } : undefined}
          />
        </>
      ) : null}

      {data && pages > 1 ? (
        <div className="flex items-center gap-3 text-sm">
          <Button variant="secondary" disabled={params.page <= 1} onClick={() => update({ page: params.page - 1 })}>
            {t("previousPage")}
          </Button>
          <span>{t("page", { page: params.page, pages })}</span>
          <Button variant="secondary" disabled={params.page >= pages} onClick={() => update({ page: params.page + 1 })}>
            {t("nextPage")}
          </Button>
        </div>
      ) : null}
      <ShortcutsDialog open={helpOpen} onOpenChange={setHelpOpen} />
    </div>
  );
}

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
      className="rounded-md border border-slate-300 px-2 py-0.5"
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
