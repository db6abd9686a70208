"use client";

import { useTranslations } from "next-intl";

import { SessionDetails } from "@/components/account/session-details";
import { Alert } from "@/components/ui/alert";
import { AppLink as Link } from "@/components/ui/app-link";
import { Button } from "@/components/ui/button";
import { Dialog, DialogClose } from "@/components/ui/dialog";
import { LoadFailed } from "@/components/ui/load-failed";
import type { StaffListEntry } from "@/lib/staff/types";

import { useEndStaffSessionsMutation, useStaffSessionsQuery } from "./staff-security-queries";
import { useErrorReason } from "./use-error-reason";

/*
 * A member's live sessions (browser, system, address, started, last active), read when the dialog opens, and
 * "End all sessions": each ends on its next request, on every instance. An admin's own sessions are ended from
 * their account page instead (ending them here would sign this one out mid-task).
 */
export function StaffSessionsDialog({
  member,
  self,
  onOpenChange,
}: {
  member: StaffListEntry | null;
  self: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const t = useTranslations("staff.sessions");
  const query = useStaffSessionsQuery(member?.id ?? "", { enabled: member !== null });
  const end = useEndStaffSessionsMutation();
  const reason = useErrorReason();
  const sessions = query.data?.sessions ?? [];

  return (
    <Dialog
      open={member !== null}
      onOpenChange={(open) => {
        if (!open) end.reset();
        onOpenChange(open);
      }}
      title={t("title", { name: member?.name ?? "" })}
      description={t("description")}
    >
      <div className="space-y-4">
        <div aria-live="polite">
          {end.data ? (
            <Alert tone="success">{t("ended", { count: end.data.ended })}</Alert>
          ) : end.error ? (
            <Alert tone="error">{t("endFailed", { message: reason(end.error) })}</Alert>
          ) : null}
        </div>
        {query.isPending ? (
          <p className="text-sm text-slate-600">{t("loading")}</p>
        ) : query.isError ? (
          <LoadFailed onRetry={query.refetch} retryLabel={t("retry")}>
            {t("loadFailed")}
          </LoadFailed>
        ) : sessions.length === 0 ? (
          <p className="text-sm text-slate-600">{t("none")}</p>
        ) : (
          <ul
            className="divide-y divide-slate-100 rounded-lg border border-slate-200"
            aria-label={t("listLabel", { name: member?.name ?? "" })}
          >
            {sessions.map((session) => (
              <li key={session.id} className="space-y-1 p-3 text-sm" data-testid="staff-session">
                <p className="font-medium text-slate-900">
                  {t("device", { browser: session.browser ?? t("unknownBrowser"), system: session.system ?? t("unknownSystem") })}
                </p>
                <SessionDetails session={session} messages="staff.sessions" className="text-xs" />
              </li>
            ))}
          </ul>
        )}
        {self ? (
          <p className="text-sm text-slate-600">
            {t.rich("ownSessions", {
              link: (chunks) => (
                <Link href="/account" className="text-brand-700 underline">
                  {chunks}
                </Link>
              ),
            })}
          </p>
        ) : null}
        <div className="flex flex-wrap justify-end gap-2">
          <DialogClose asChild>
            <Button variant="secondary">{t("close")}</Button>
          </DialogClose>
          {!self ? (
            <Button
              variant="danger"
              pending={end.isPending}
              disabled={!member || (query.isSuccess && sessions.length === 0)}
              onClick={() => member && end.mutate({ id: member.id })}
            >
              {t("endAll")}
            </Button>
          ) : null}
        </div>
      </div>
    </Dialog>
  );
}
