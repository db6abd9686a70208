"use client";

import { useTranslations } from "next-intl";
import { useId, useState } from "react";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { QueryView } from "@/components/ui/query-view";
import { TitledSection } from "@/components/ui/titled-section";
import { useEndOtherSessionsMutation, useEndSessionMutation, useSessionsQuery } from "@/lib/account/hooks";
import type { SessionDto } from "@/lib/account/types";

import { SessionDetails } from "./session-details";

/*
 * The member's live sessions, once per device (the server groups them: lib/account/server/devices.ts), this one's
 * device marked: ending a device ends every session on it, each on its next request (the server checks the session
 * on every request). "End all other sessions" (other devices', and this device's older ones) asks first; both
 * refresh the list when done.
 */
export function SessionsSection() {
  const t = useTranslations("account.sessions");
  const tCommon = useTranslations("common");
  const query = useSessionsQuery();
  const end = useEndSessionMutation();
  const endOthers = useEndOtherSessionsMutation();
  const [pendingId, setPendingId] = useState<string | null>(null);
  const [confirmAll, setConfirmAll] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const id = useId();
  const device = (session: SessionDto) =>
    t("device", { browser: session.browser ?? t("unknownBrowser"), system: session.system ?? t("unknownSystem") });

  const sessions = query.data?.sessions ?? [];
  const others = sessions.filter((session) => !session.current);
  // Every session but this one: the other devices' and this device's older sign-ins.
  const otherCount = sessions.reduce((sum, session) => sum + session.count, 0) - (sessions.some((session) => session.current) ? 1 : 0);

  return (
    <TitledSection
      id={`${id}-heading`}
      title={t("heading")}
      lead={t("intro")}
      leadClassName="max-w-2xl text-slate-600"
      className="space-y-4"
    >
      <div aria-live="polite">
        {end.error ? <Alert tone="error">{t("failed")}</Alert> : done ? <Alert tone="success">{done}</Alert> : null}
      </div>
      <QueryView query={query} failed={t("loadFailed")} retryLabel={tCommon("retry")} loading={tCommon("loading")}>
        {() => (
          <>
            <ul aria-label={t("listLabel")} className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
              {sessions.map((session) => (
                <li key={session.id} className="flex flex-wrap items-start justify-between gap-3 p-4" data-testid="session">
                  <div className="min-w-0">
                    <p className="font-medium break-words text-slate-900">
                      {device(session)}
                      {session.current ? (
                        <span className="ml-2 inline-block rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-900">
                          {t("current")}
                        </span>
                      ) : null}
                    </p>
                    <SessionDetails session={session} messages="account.sessions" className="mt-1 text-sm" />
                  </div>
                  {session.current ? null : (
                    <Button
                      variant="secondary"
                      pending={pendingId === session.id}
                      aria-label={t("endLabel", { device: device(session) })}
                      onClick={() => {
                        setPendingId(session.id);
                        setDone(null);
                        end.mutate(
                          { id: session.id },
                          { onSuccess: () => setDone(t("ended", { device: device(session) })), onSettled: () => setPendingId(null) },
                        );
                      }}
                    >
                      {t("end")}
                    </Button>
                  )}
                </li>
              ))}
            </ul>
            {others.length > 0 || otherCount > 0 ? (
              <Button
                variant="danger"
                onClick={() => {
                  endOthers.reset();
                  setDone(null);
                  setConfirmAll(true);
                }}
              >
                {t("endAll")}
              </Button>
            ) : (
              <p className="text-sm text-slate-600">{t("noOthers")}</p>
            )}
          </>
        )}
      </QueryView>
      <ConfirmDialog
        open={confirmAll}
        onOpenChange={setConfirmAll}
        title={t("confirmAll.title")}
        description={t("confirmAll.body", { count: otherCount })}
        confirmLabel={t("confirmAll.confirm")}
        cancelLabel={t("confirmAll.cancel")}
        pending={endOthers.isPending}
        error={endOthers.error ? t("failed") : null}
        onConfirm={() =>
          endOthers.mutate(undefined, {
            onSuccess: ({ ended }) => {
              setConfirmAll(false);
              setDone(t("endedAll", { count: ended }));
            },
          })
        }
      />
    </TitledSection>
  );
}
