"use client";

import { useTranslations } from "next-intl";
import { lazy } from "react";

import type { Viewer } from "@/components/cases/viewer";
import { AfterLoad } from "@/components/ui/after-load";

const AlertQueue = lazy(() => import("./alert-queue"));

/**
 * The Monitoring queue's place under the review queue (`/cases#monitoring`): its heading now, its alerts
 * (./alert-queue.tsx, with react-query) once the page has loaded. The review queue is what the first paint is for.
 */
export function AlertQueueIsland({ viewer }: { viewer: Viewer }) {
  const t = useTranslations("monitoring.queue");
  const tCommon = useTranslations("common");
  return (
    <section id="monitoring" aria-labelledby="monitoring-queue-title" className="mt-8 space-y-3">
      <h2 id="monitoring-queue-title" className="text-lg font-semibold text-slate-900">
        {t("title")}
      </h2>
      <p className="text-sm text-slate-600">{t("intro")}</p>
      <AfterLoad standIn={<p className="text-sm text-slate-600">{tCommon("loading")}</p>}>
        <AlertQueue viewer={viewer} />
      </AfterLoad>
    </section>
  );
}
