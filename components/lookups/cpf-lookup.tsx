"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";

import { CpfLookupForm, type LookupRequest } from "@/components/lookups/cpf-lookup-form";
import { LookupResult } from "@/components/lookups/lookup-result";
import { useCpfLookup } from "@/lib/lookups/hooks";
import type { LookupSource } from "@/lib/lookups/rules";
import { ApiRequestError } from "@/lib/shared/api-client/api-request";
import { formatCpf } from "@/lib/shared/cpf";

function fieldErrors(...errors: unknown[]) {
  const fields = errors.flatMap((error) => (error instanceof ApiRequestError && error.code === "validation" ? error.fields : []));
  return { cpf: fields.includes("cpf"), purpose: fields.includes("purpose") };
}

/** A CPF looked up at the sources asked for (the federal revenue record, the enrichment), each answer in its own card with a retry. */
export function CpfLookup() {
  const t = useTranslations("lookups");
  const receita = useCpfLookup();
  const history = useCpfLookup();
  const [request, setRequest] = useState<LookupRequest | null>(null);
  const mutations = { receita, history } as const;

  function runOne(source: LookupSource, current: LookupRequest) {
    mutations[source].mutate({ cpf: current.cpf, source, purpose: current.purpose });
  }

  function run(next: LookupRequest) {
    setRequest(next);
    receita.reset();
    history.reset();
    for (const source of next.sources) runOne(source, next);
  }

  const pending = receita.isPending || history.isPending;
  const serverErrors = fieldErrors(receita.error, history.error);

  return (
    <div className="space-y-6">
      <CpfLookupForm pending={pending} serverErrors={serverErrors} onSubmit={run} />
      {request ? (
        <section aria-labelledby="lookup-results-heading" className="space-y-3">
          <h2 id="lookup-results-heading" className="text-lg font-semibold text-slate-900">
            {t("results.heading", { cpf: formatCpf(request.cpf) })}
          </h2>
          <div className={`grid gap-4 ${request.sources.length > 1 ? "lg:grid-cols-2" : ""}`}>
            {request.sources.map((source) => {
              const mutation = mutations[source];
              return (
                <LookupResult
                  key={source}
                  source={source}
                  status={mutation.status}
                  data={mutation.data}
                  error={mutation.error}
                  onRetry={() => runOne(source, request)}
                />
              );
            })}
          </div>
        </section>
      ) : null}
    </div>
  );
}
