"use client";

import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { withQueryProvider } from "@/components/ui/query-provider";
import type { ReasonCode } from "@/lib/cases/rules";
import { useCreateTemplate } from "@/lib/cases/template-hooks";

import { ErrorLine } from "./error-line";
import { TemplateFields, unplacedError, type TemplateDraft } from "./template-fields";
import { TemplateList } from "./template-list";

const EMPTY: TemplateDraft = { kind: "reprove", name: "", reasons: [], comment: "" };

/**
 * The team's decision templates on /admin/cases (cases.assign): every member who decides cases sees them first in
 * the decision form, numbered. A new one here; each edited or retired from the list above it. Loaded after the page,
 * with react-query, which the case page's template hooks share (./team-templates-island.tsx draws its heading).
 */
export default withQueryProvider(TeamTemplates);

function TeamTemplates() {
  const t = useTranslations("cases.templates");
  const create = useCreateTemplate();
  const [draft, setDraft] = useState<TemplateDraft>(EMPTY);
  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(
      { ...draft, scope: "team", reasons: draft.reasons as ReasonCode[] },
      // The kind stays: the next template is often of the same kind.
      { onSuccess: () => setDraft((current) => ({ ...EMPTY, kind: current.kind })) },
    );
  }
  return (
    <>
      <TemplateList scope="team" />
      <form onSubmit={submit} className="max-w-2xl space-y-3" aria-label={t("teamNew")}>
        <TemplateFields draft={draft} onChange={setDraft} error={create.error} />
        <ErrorLine error={unplacedError(create.error)} />
        {create.isSuccess ? <p role="status">{t("created")}</p> : null}
        <Button type="submit" pending={create.isPending}>
          {t("teamSubmit")}
        </Button>
      </form>
    </>
  );
}
