"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useEffect, useState } from "react";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { useApiErrorMessage } from "@/components/ui/use-api-error-message";
import { useRefreshingRequest } from "@/components/ui/use-refreshing-request";
import { deleteRevealIntegrationKey, postRevealIntegrationKey } from "@/lib/integrations/requests";
import type { CreatedIntegrationResponse, RevealableKeyDto } from "@/lib/integrations/types";
import { ApiRequestError } from "@/lib/shared/api-client/api-request";

import { CreatedKeyPanel } from "./created-key-panel";

/** Re-renders every `ms` so deadlines pass on screen without a reload. */
function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

/**
 * Keys this admin created within the reveal window, recoverable from the sealed cookie: the value is
 * fetched only on request, kept in this component's memory, and gone from the screen at the deadline.
 */
export function RevealableKeys({ keys, windowSeconds }: { keys: RevealableKeyDto[]; windowSeconds: number }) {
  const t = useTranslations("integrations.revealable");
  const format = useFormatter();
  const now = useNow(5_000);
  const live = keys.filter((key) => Date.parse(key.revealUntil) > now);
  if (live.length === 0) return null;
  return (
    <section aria-labelledby="revealable-title" className="rounded-xl border border-amber-200 bg-amber-50/40 p-5">
      <h2 id="revealable-title" className="text-lg font-semibold text-slate-900">
        {t("title")}
      </h2>
      <p className="mt-1 text-sm text-slate-700">{t("description", { minutes: Math.round(windowSeconds / 60) })}</p>
      <ul className="mt-4 space-y-4">
        {live.map((key) => (
          <RevealableKey key={key.upstreamId} entry={key} until={format.dateTime(new Date(key.revealUntil), { timeStyle: "short" })} />
        ))}
      </ul>
    </section>
  );
}

function RevealableKey({ entry, until }: { entry: RevealableKeyDto; until: string }) {
  const t = useTranslations("integrations.revealable");
  const errorMessage = useApiErrorMessage();
  // A refused reveal means the window passed: the list of revealable keys changed, so it is drawn again.
  const reveal = useRefreshingRequest(postRevealIntegrationKey, "error");
  const forget = useRefreshingRequest(deleteRevealIntegrationKey);
  const [shown, setShown] = useState<CreatedIntegrationResponse | undefined>();
  const [problem, setProblem] = useState<string | undefined>();

  function onReveal() {
    setProblem(undefined);
    reveal.mutate(entry.upstreamId, {
      onSuccess: (result) => setShown(result),
      onError: (error) => setProblem(error instanceof ApiRequestError && error.code === "not_found" ? t("gone") : errorMessage(error)),
    });
  }

  return (
    <li className="rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <p className="font-medium text-slate-900">{entry.label}</p>
          <p className="text-sm text-slate-700">
            <span className="font-mono">{entry.domain}</span> · {t("until", { until })}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {shown ? (
            <Button variant="secondary" onClick={() => setShown(undefined)}>
              {t("hide")}
            </Button>
          ) : (
            <Button
              variant="secondary"
              pending={reveal.isPending}
              onClick={onReveal}
              aria-label={`${t("reveal")}: ${entry.label} (${entry.domain})`}
            >
              {reveal.isPending ? t("revealing") : t("reveal")}
            </Button>
          )}
          <Button variant="ghost" pending={forget.isPending} onClick={() => forget.mutate(entry.upstreamId)}>
            {t("forget")}
          </Button>
        </div>
      </div>
      {shown ? (
        <div className="mt-4">
          <CreatedKeyPanel result={shown} showHeading={false} />
        </div>
      ) : null}
      {problem ? (
        <div className="mt-3">
          <Alert tone="error">{problem}</Alert>
        </div>
      ) : null}
    </li>
  );
}
