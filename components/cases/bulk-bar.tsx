"use client";

import { useTranslations } from "next-intl";
import { useEffect, useId, useRef, useState } from "react";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { useBulkCases } from "@/lib/cases/routing-queries";
import type { BulkResult, CaseSummary, RoutingConfig } from "@/lib/cases/types";

/*
 * The queue's bulk bar (issue 23): pick all on this page, then assign (to a member), unassign or move to a
 * queue. Each case is done on its own by the server; the answer lists which succeeded and which were refused,
 * with the reason, and the refused stay picked so they can be dealt with next.
 */
export function BulkBar({
  items,
  picked,
  onChange,
  queues,
  staff,
  canAssign,
}: {
  items: CaseSummary[];
  picked: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
  queues: Array<{ id: string; name: string }>;
  /** Assignees to offer (only for cases.assign holders, who read the routing). */
  staff: RoutingConfig["staff"];
  canAssign: boolean;
}) {
  const t = useTranslations("cases.queue.bulk");
  const bulk = useBulkCases();
  const id = useId();
  const [assignee, setAssignee] = useState("");
  const [queue, setQueue] = useState("");
  const [results, setResults] = useState<BulkResult["results"] | null>(null);
  const all = useRef<HTMLInputElement>(null);
  const onPage = items.map((item) => item.publicId);
  const pickedOnPage = onPage.filter((publicId) => picked.has(publicId)).length;
  useEffect(() => {
    if (all.current) all.current.indeterminate = pickedOnPage > 0 && pickedOnPage < onPage.length;
  }, [pickedOnPage, onPage.length]);

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
      },
    );
  }

  const active = staff.filter((member) => !member.disabled);
  const none = picked.size === 0;
  return (
    <section aria-label={t("label")} className="space-y-2 rounded-md border border-slate-200 bg-white p-3 text-sm">
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex items-center gap-2">
          <input
            ref={all}
            type="checkbox"
            className="size-4"
            checked={onPage.length > 0 && pickedOnPage === onPage.length}
            onChange={(event) => {
              const next = new Set(picked);
              for (const publicId of onPage) {
                if (event.target.checked) next.add(publicId);
                else next.delete(publicId);
              }
              onChange(next);
            }}
          />
          <span>{t("all")}</span>
        </label>
        <p aria-live="polite" className="text-slate-700">
          {t("picked", { count: picked.size })}
        </p>
        {canAssign ? (
          <div className="flex flex-wrap items-end gap-2">
            <label className="flex flex-col gap-1" htmlFor={`${id}-assignee`}>
              <span className="font-medium text-slate-800">{t("assignee")}</span>
              <select
                id={`${id}-assignee`}
                className="rounded-md border border-slate-300 px-2 py-1"
                value={assignee}
                onChange={(event) => setAssignee(event.target.value)}
              >
                <option value="">{t("chooseAssignee")}</option>
                {active.map((member) => (
                  <option key={member.id} value={member.id}>
                    {member.name ? `${member.name} (${member.email})` : member.email}
                    {member.away ? ` · ${t("away")}` : ""}
                  </option>
                ))}
              </select>
            </label>
            <Button variant="secondary" disabled={none || !assignee || bulk.isPending} onClick={() => run("assign")}>
              {t("assign")}
            </Button>
          </div>
        ) : null}
        <Button variant="secondary" disabled={none || bulk.isPending} onClick={() => run("unassign")}>
          {t("unassign")}
        </Button>
        {canAssign ? (
          <div className="flex flex-wrap items-end gap-2">
            <label className="flex flex-col gap-1" htmlFor={`${id}-queue`}>
              <span className="font-medium text-slate-800">{t("queue")}</span>
              <select
                id={`${id}-queue`}
                className="rounded-md border border-slate-300 px-2 py-1"
                value={queue}
                onChange={(event) => setQueue(event.target.value)}
              >
                <option value="">{t("chooseQueue")}</option>
                {queues.map((item) => (
                  <option key={item.id} value={item.id}>
                    {item.name}
                  </option>
                ))}
              </select>
            </label>
            <Button variant="secondary" disabled={none || !queue || bulk.isPending} onClick={() => run("move")}>
              {t("move")}
            </Button>
          </div>
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
