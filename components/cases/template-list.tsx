"use client";

import { useTranslations } from "next-intl";

import { Button } from "@/components/ui/button";
import { useRetireTemplate, useTemplates } from "@/lib/cases/template-hooks";

import { EditTemplateDialog } from "./edit-template-dialog";
import { ErrorLine } from "./error-line";

/**
 * The member's own templates (or the team's, on /admin/cases), every kind, each edited in a dialog or retired with
 * one button when the member may change it.
 */
export function TemplateList({ scope }: { scope: "personal" | "team" }) {
  const t = useTranslations("cases.templates");
  const tr = useTranslations("cases.recommendation");
  const templates = useTemplates();
  const retire = useRetireTemplate();
  const own = (templates.data?.templates ?? []).filter((template) => template.scope === scope);
  if (templates.isPending) return <p className="text-sm text-slate-600">{t("loading")}</p>;
  if (own.length === 0) return <p className="text-sm text-slate-600">{t(scope === "team" ? "noneTeam" : "noneOwn")}</p>;
  return (
    <>
      <ul className="divide-y divide-slate-200" aria-label={t(scope === "team" ? "teamList" : "ownList")}>
        {own.map((template) => (
          <li key={template.id} className="flex flex-wrap items-center gap-2 py-1.5 text-sm">
            <span className="min-w-0 flex-1 break-words">
              <span className="font-medium">{template.name}</span> <span className="text-slate-600">· {tr(template.kind)}</span>
              {template.comment ? <span className="block text-xs break-words text-slate-600">{template.comment}</span> : null}
            </span>
            {template.editable ? <EditTemplateDialog template={template} /> : null}
            {template.editable ? (
              <Button
                type="button"
                variant="secondary"
                aria-label={t("retireNamed", { name: template.name })}
                pending={retire.isPending && retire.variables === template.id}
                onClick={() => retire.mutate(template.id)}
              >
                {t("retire")}
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
      <ErrorLine error={retire.error} />
    </>
  );
}
