import { useTranslations } from "next-intl";
import type { FormEvent, ReactNode } from "react";

import { BareButton } from "@/components/ui/button";

export type SearchBy = "ref_id" | "cpf";

/**
 * What the search's form shows. Without `on`, the stand-in drawn on the server before the search's code has loaded: all
 * disabled, no handler (so the server can draw it: its markup travels with the page, not in a script).
 */
export interface CaseSearchFormProps {
  by: SearchBy;
  value: string;
  problem?: string | null;
  pending?: boolean;
  on?: { by(by: SearchBy): void; value(value: string): void; submit(event: FormEvent): void };
  /** Under the form: what the search answered. */
  children?: ReactNode;
}

/*
 * The top bar's search form, drawn once: by the search itself (./case-search.tsx) and, until the page has loaded and
 * the search's code with it, as its stand-in (drawn by the server, given to components/layout/shell-island.tsx), so the bar does not move when one replaces
 * the other. The stand-in's controls are disabled: nothing typed into it could be lost in the swap.
 */
export function CaseSearchForm({ by, value, problem = null, pending = false, on, children }: CaseSearchFormProps) {
  const t = useTranslations("cases.search");
  const inert = !on;
  return (
    <div className="relative w-full sm:w-auto">
      <form role="search" aria-label={t("label")} onSubmit={on ? on.submit : undefined} className="flex items-center gap-1 text-sm">
        <label className="sr-only" htmlFor="case-search-by">
          {t("by")}
        </label>
        <select
          id="case-search-by"
          value={by}
          disabled={inert}
          onChange={on ? (event) => on.by(event.target.value as SearchBy) : undefined}
          className="rounded-md border border-slate-300 px-1 py-1"
        >
          <option value="ref_id">{t("refId")}</option>
          <option value="cpf">{t("cpf")}</option>
        </select>
        <label className="sr-only" htmlFor="case-search-value">
          {t("label")}
        </label>
        <input
          id="case-search-value"
          value={value}
          disabled={inert}
          onChange={on ? (event) => on.value(event.target.value) : undefined}
          placeholder={by === "cpf" ? t("placeholderCpf") : t("placeholderRef")}
          autoComplete="off"
          inputMode={by === "cpf" ? "numeric" : "text"}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? "case-search-problem" : undefined}
          className="w-32 min-w-0 flex-1 rounded-md border border-slate-300 px-2 py-1 sm:w-40 sm:flex-none"
        />
        <BareButton
          type="submit"
          className="rounded-md bg-brand-700 px-2 py-1 font-medium text-white hover:bg-brand-800"
          disabled={inert || pending}
        >
          {t("submit")}
        </BareButton>
      </form>
      {children}
    </div>
  );
}
