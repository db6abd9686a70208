"use client";

import { useTranslations } from "next-intl";
import { lazy } from "react";

import { AfterLoad } from "@/components/ui/after-load";

const TeamTemplates = lazy(() => import("./team-templates"));

/**
 * The team's decision templates on /admin/cases: the heading now, the list and the form (./team-templates.tsx, with
 * react-query) once the page has loaded. They sit below the routing editor, which the first paint is for.
 */
export function TeamTemplatesIsland() {
  const t = useTranslations("cases.templates");
  return (
    <section aria-labelledby="team-templates-title" className="space-y-3">
      <h2 id="team-templates-title" className="text-lg font-semibold text-slate-900">
        {t("teamTitle")}
      </h2>
      <p className="text-sm text-slate-600">{t("teamHint")}</p>
      <AfterLoad standIn={<p className="text-sm text-slate-600">{t("loading")}</p>}>
        <TeamTemplates />
      </AfterLoad>
    </section>
  );
}
