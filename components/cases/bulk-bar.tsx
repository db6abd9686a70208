"use client";

import { useTranslations } from "next-intl";
import { useId, useState } from "react";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { bulkCases } from "@/lib/cases/queue-requests";
import type { BulkResult } from "@/lib/cases/types";
import { useRequest } from "@/lib/shared/api-client/use-request";

import type { QueueStaff } from "./queue-view";

/*
 * The queue's bulk bar (issue 23): assign the picked cases (to a member), unassign them or move them to a
 * queue. Each case is done on its own by the server; the answer lists which succeeded and which were refused,
 * with the reason, and the refused stay picked so they can be dealt with next. One slim line, shown only while
 * something is picked or a result is to be read, so the queue keeps its rows on the first screen (picking,
 * one or all on the page, is in the table: components/cases/case-queue-table.tsx). Done or refused, the queue reads
 * its view again after (`onDone`): a refusal may mean the case changed.
 */
export function BulkBar({
  picked,
  onChange,
  queues,
  staff,
  canAssign,
  onDone,
}: {
  picked: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
  queues: Array<{ id: string; name: string }>;
  /** Assignees to offer (only for cases.assign holders, who read the routing). */
  staff: QueueStaff;
  canAssign: boolean;
  onDone: () => void;
}) {
  const t = useTranslations("cases.queue.bulk");
  const bulk = useRequest(bulkCases);
  const id = useId();
  const [assignee, setAssignee] = useState("");
  const [queue, setQueue] = useState("");
  const [results, setResults] = useState<BulkResult["results"] | null>(null);

  function run(action: "assign" | "unassign" | "move") {
    const publicIds = [...picked];
    if (publicIds.length === 0) return;
    bulk.mutate(
      { action, publicIds, ...(action === "assign" ? { assignee } : {}), ...(action === "move" ? { queue } : {}) },
      {
        onSuccess: (data) => {
          setResults(data.results);
          onChange(new Set(data.results.filter((result) => !result.ok).map((result) => result.publicId)));
        },
        onSettled: onDone,
      },
    );
  }

  const active = staff.filter((member) => !member.disabled);
  const none = picked.size === 0;
  if (none && !results && !bulk.error) return null;
  return (
    <section aria-label={t("label")} className="space-y-1 rounded-md border border-slate-200 bg-white px-3 py-1 text-sm">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <p aria-live="polite" className="font-medium text-slate-800">
          {t("picked", { count: picked.size })}
        </p>
        {canAssign ? (
          <ChooseAndApply
            id={`${id}-assignee`}
            label={t("assignee")}
            choose={t("chooseAssignee")}
            value={assignee}
            onChoose={setAssignee}
            options={active.map((member) => ({
              value: member.id,
              label: `${member.name ? `${member.name} (${member.email})` : member.email}${member.away ? ` · ${t("away")}` : ""}`,
            }))}
            action={t("assign")}
            disabled={none || bulk.isPending}
            onApply={() => run("assign")}
          />
        ) : null}
        <Button variant="secondary" disabled={none || bulk.isPending} onClick={() => run("unassign")}>
          {t("unassign")}
        </Button>
        {canAssign ? (
          <ChooseAndApply
            id={`${id}-queue`}
            label={t("queue")}
            choose={t("chooseQueue")}
            value={queue}
            onChoose={setQueue}
            options={queues.map((item) => ({ value: item.id, label: item.name }))}
            action={t("move")}
            disabled={none || bulk.isPending}
            onApply={() => run("move")}
          />
        ) : null}
      </div>
      {bulk.error ? <Alert tone="error" title={bulk.error.message} /> : null}
      {results ? (
        <div role="status" aria-live="polite" data-testid="bulk-results">
          <p className="font-medium text-slate-800">
            {t("summary", { done: results.filter((result) => result.ok).length, refused: results.filter((result) => !result.ok).length })}
          </p>
          <ul className="mt-1 space-y-0.5">
            {results.map((result) => (
              <li key={result.publicId} className={result.ok ? "text-emerald-800" : "text-red-800"}>
                <span className="font-mono text-xs">{result.publicId}</span>:{" "}
                {result.ok ? t("done") : t("refused", { reason: result.error ?? "" })}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}

/** A choice and the button that applies it to the picked cases (a member to assign to, a queue to move to). */
function ChooseAndApply({
  id,
  label,
  choose,
  value,
  onChoose,
  options,
  action,
  disabled,
  onApply,
}: {
  id: string;
  label: string;
  /** The empty first choice. */
  choose: string;
  value: string;
  onChoose: (value: string) => void;
  options: Array<{ value: string; label: string }>;
  action: string;
  disabled: boolean;
  onApply: () => void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <label className="flex items-center gap-2" htmlFor={id}>
        <span className="font-medium text-slate-800">{label}</span>
        <select
          id={id}
          className="rounded-md border border-slate-300 px-2 py-0.5"
          value={value}
          onChange={(event) => onChoose(event.target.value)}
        >
          <option value="">{choose}</option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </label>
      <Button variant="secondary" disabled={disabled || !value} onClick={onApply}>
        {action}
      </Button>
    </div>
  );
}
