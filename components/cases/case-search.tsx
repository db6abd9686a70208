"use client";

import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { AppLink as Link, useAppRouter } from "@/components/ui/app-link";
import { searchQuotaOf, searchUnanswered, useSearch } from "@/lib/cases/search";
import type { SearchMiss } from "@/lib/cases/types";
import { handCpfToLookup } from "@/lib/lookups/prefill";
import { isValidCpf } from "@/lib/shared/cpf";

import { CaseSearchForm, type SearchBy } from "./case-search-form";

/*
 * The top bar's search: by ref_id or by CPF. The CPF goes in a POST body (never a URL, a query key or
 * history); one hit opens the verification, several are listed. Nothing found says what the search can find
 * (the answer's `miss`: only what the dashboard has seen) and, for a CPF, offers the CPF lookup with the CPF
 * filled in (handed over in memory, lib/lookups/prefill.ts, never in the link).
 */

function NoHits({ miss, cpf }: { miss: SearchMiss | undefined; cpf: string }) {
  const t = useTranslations("cases.search");
  if (!miss) return <p>{t("noHits")}</p>;
  return (
    <div className="space-y-1">
      <p className="font-medium">{t(miss.by === "cpf" ? "miss.cpf" : "miss.refId")}</p>
      <ul className="list-disc pl-5 text-xs text-slate-700">
        {miss.sources.map((source) => (
          <li key={source}>{t(`miss.sources.${source}`)}</li>
        ))}
      </ul>
      {miss.cpfLookup ? (
        <p>
          <Link className="text-brand-800 underline" href="/lookups/cpf" onClick={() => handCpfToLookup(cpf)}>
            {t("miss.lookup")}
          </Link>
          <span className="block text-xs text-slate-600">{t("miss.lookupHint")}</span>
        </p>
      ) : null}
    </div>
  );
}
export function CaseSearch() {
  const t = useTranslations("cases.search");
  const router = useAppRouter();
  const search = useSearch();
  // The CPF-search quota of a member who sees CPFs masked: said in the member's language, with when to come back; no
  // answer at all, in the member's language too.
  const errorText = (error: Error) => {
    const quota = searchQuotaOf(error);
    if (quota) return t(`limit.${quota.scope}`, { limit: String(quota.limit ?? ""), seconds: quota.seconds });
    return searchUnanswered(error) ? t("unanswered") : error.message;
  };
  const [by, setBy] = useState<SearchBy>("ref_id");
  const [value, setValue] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  // The CPF the answer is about (the field may have changed since), for the lookup link.
  const [searchedCpf, setSearchedCpf] = useState("");

  function submit(event: FormEvent) {
    event.preventDefault();
    if (by === "cpf" && !isValidCpf(value)) {
      setProblem(`${t("cpf")}: 000.000.000-00`);
      return;
    }
    setProblem(null);
    setSearchedCpf(by === "cpf" ? value : "");
    search.mutate(by === "cpf" ? { cpf: value } : { ref_id: value.trim() }, {
      onSuccess: ({ hits }) => {
        if (hits.length === 1) router.push(`/verifications/${encodeURIComponent(hits[0]!.publicId)}`);
      },
    });
  }

  const hits = search.data?.hits;
  return (
    <CaseSearchForm by={by} value={value} problem={problem} pending={search.isPending} on={{ by: setBy, value: setValue, submit }}>
      <div aria-live="polite" className="absolute right-0 z-30 mt-1 w-full max-w-80 sm:w-80">
        {problem ? (
          <p id="case-search-problem" className="rounded-md bg-red-50 p-2 text-sm text-red-800">
            {problem}
          </p>
        ) : search.error ? (
          <p className="rounded-md bg-red-50 p-2 text-sm text-red-800">{errorText(search.error)}</p>
        ) : hits && hits.length === 0 ? (
          <div className="rounded-md border border-slate-200 bg-white p-2 text-sm shadow">
            <NoHits miss={search.data?.miss} cpf={searchedCpf} />
          </div>
        ) : hits && hits.length > 1 ? (
          <div className="rounded-md border border-slate-200 bg-white p-2 text-sm shadow">
            <p className="font-medium">{t("hits", { count: hits.length })}</p>
            <ul>
              {hits.map((hit) => (
                <li key={hit.publicId}>
                  <Link className="text-brand-800 underline" href={`/verifications/${encodeURIComponent(hit.publicId)}`}>
                    {hit.refId ?? hit.publicId}
                  </Link>{" "}
                  <span className="font-mono text-xs">{hit.documentMasked}</span>
                  {hit.caseStatus ? <span className="text-xs"> · {t("hitCase", { status: hit.caseStatus })}</span> : null}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </div>
    </CaseSearchForm>
  );
}
