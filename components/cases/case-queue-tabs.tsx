"use client";

import { useTranslations } from "next-intl";

import { BareButton } from "@/components/ui/button";
import type { QueueParams } from "@/lib/cases/queue-requests";
import { QUEUES } from "@/lib/cases/queue-rules";
import type { CaseQueueResponse } from "@/lib/cases/types";

/** The queue's tabs (open, mine, unassigned, …), each with its count once the queue has loaded. */
export function CaseQueueTabs({
  current,
  counts,
  onChoose,
}: {
  current: QueueParams["queue"];
  counts: CaseQueueResponse["counts"] | undefined;
  onChoose: (queue: QueueParams["queue"]) => void;
}) {
  const t = useTranslations("cases.queue");
  return (
    <nav aria-label={t("tabs.label")}>
      <ul className="flex flex-wrap gap-1 border-b border-slate-200">
        {QUEUES.map((name) => (
          <li key={name}>
            <BareButton
              type="button"
              aria-current={current === name ? "page" : undefined}
              onClick={() => onChoose(name)}
              className={`rounded-t-md px-3 py-2 text-sm font-medium ${current === name ? "border-b-2 border-brand-700 text-brand-800" : "text-slate-700 hover:bg-slate-100"}`}
            >
              {t(`tabs.${name}`)}
              {/* A space, not a margin: the tab's name reads "Unassigned (2)", not "Unassigned(2)". */}
              {counts ? (
                <>
                  {" "}
                  <span className="text-xs text-slate-600">({counts[name]})</span>
                </>
              ) : null}
            </BareButton>
          </li>
        ))}
      </ul>
    </nav>
  );
}
