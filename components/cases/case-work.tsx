"use client";

import { useIsMutating } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useCallback, useEffect, useState, type ReactNode } from "react";

import { hasPermission } from "@/lib/auth/has-permission";
import { caseKeys, useCase } from "@/lib/cases/hooks";
import { DEFAULT_TAKE_MODE, type TakeMode } from "@/lib/cases/take-mode";
import type { CaseDetail } from "@/lib/cases/types";

import { CaseClaim } from "./case-claim";
import { CaseFacts, CaseStageNotes } from "./case-facts";
import { useFocusNeverLost } from "./case-panel-focus";
import { CasePanelHeading } from "./case-panel-heading";
import { CoafReportAction } from "./coaf-report-action";
import { ErrorLine } from "./error-line";
import { CaseNoteForm } from "./note-form";
import { OutcomeSection } from "./outcome-section";
import { CASE_SHORTCUTS, ShortcutsDialog } from "./shortcuts-dialog";
import { useCaseClaim } from "./use-case-claim";
import { useCaseShortcuts, type CaseKeyTarget } from "./use-case-shortcuts";
import { useCaseTake } from "./use-case-take";
import { useNextCaseAhead } from "./use-next-case-ahead";
import type { Viewer } from "./viewer";

export type { Viewer } from "./viewer";

/** What the verification feature adds to the panel (its images read ahead, re-verification), drawn after the outcome. */
type VerificationPart = (detail: CaseDetail) => ReactNode;

/**
 * The decision panel of the case page: owner, recommendation, reasons, note, confirmation, with the case
 * page's keyboard shortcuts (CASE_SHORTCUTS, listed on `?`). `context` is the queue it was opened from, so
 * next, previous and back keep its tab, filters and sort. The case feature does not import the verification
 * feature's components: the page hands them in (`verificationPart`).
 */
export function CaseWork({
  publicId,
  viewer,
  context = "",
  verificationPart,
}: {
  publicId: string;
  viewer: Viewer;
  context?: string;
  verificationPart?: VerificationPart;
}) {
  const t = useTranslations("cases.panel");
  const [helpOpen, setHelpOpen] = useState(false);
  const openHelp = useCallback(() => setHelpOpen(true), []);
  // Listening from the first render on, so a key pressed while the case loads is kept, not lost.
  const keys = useCaseShortcuts({ context, onHelp: openHelp });
  const query = useCase(publicId, context);
  const data = query.data;
  const help = <ShortcutsDialog open={helpOpen} onOpenChange={setHelpOpen} shortcuts={CASE_SHORTCUTS} />;
  if (!data) {
    return (
      <p role="status" className="text-sm text-slate-600" data-testid="case-panel-loading" data-keys={keys.listening ? "kept" : undefined}>
        {keys.waiting ? t("keysWaiting") : null}
      </p>
    );
  }
  return (
    <>
      {data.case ? (
        <CasePanel
          detail={data.case}
          viewer={viewer}
          context={context}
          takeMode={data.takeMode ?? DEFAULT_TAKE_MODE}
          keys={keys.ready}
          onHelp={openHelp}
          verificationPart={verificationPart}
        />
      ) : (
        <NoCase keys={keys.ready} />
      )}
      {help}
    </>
  );
}

/** No case for this verification: the keys that need none (back, help) still work. */
function NoCase({ keys }: { keys: (target: CaseKeyTarget | null) => void }) {
  const t = useTranslations("cases.panel");
  useEffect(() => {
    keys({ detail: null, decide: () => false });
    return () => keys(null);
  }, [keys]);
  return <p className="text-sm text-slate-600">{t("none")}</p>;
}

function CasePanel({
  detail,
  viewer,
  context,
  takeMode,
  keys,
  onHelp,
  verificationPart,
}: {
  detail: CaseDetail;
  viewer: Viewer;
  context: string;
  takeMode: TakeMode;
  keys: (target: CaseKeyTarget | null) => void;
  onHelp: () => void;
  verificationPart?: VerificationPart;
}) {
  const t = useTranslations("cases.panel");
  useFocusNeverLost();
  useNextCaseAhead(detail.next, context);
  const claim = useCaseClaim(detail, viewer);
  const take = useCaseTake(detail, viewer, claim, takeMode);
  const { decide } = take;
  // The panel is drawn: the keys act on it (those pressed while it loaded first). While one of its actions is in
  // flight (a recommendation sent by Ctrl+Enter, a claim) keys wait for its answer and the case read after it.
  const busy = useIsMutating({ mutationKey: caseKeys.work(detail.publicId) }) > 0;
  useEffect(() => keys(busy ? null : { detail, decide }));
  useEffect(() => () => keys(null), [keys]);
  const { mine } = claim;
  const open = detail.status === "open";
  return (
    <section aria-labelledby="case-panel-title" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
      <CasePanelHeading detail={detail} context={context} onHelp={onHelp} />
      <CaseFacts
        detail={detail}
        onUnassign={open && detail.assignee && (mine || hasPermission(viewer, "cases.assign")) ? claim.unassign : undefined}
        unassigning={claim.assign.isPending}
      />
      <CaseStageNotes detail={detail} />
      {/* The first screen at 1440×900 holds what a reviewer decides with (issue 22): the claim, the outcome and
          its button. The unassign sits beside the assignee; the re-verification, the note and the provider's
          notice come after the outcome. */}
      <CaseClaim detail={detail} viewer={viewer} claim={claim} />
      {take.mustTake ? (
        <p role="status" className="text-sm font-medium text-amber-900" data-testid="case-must-take">
          {t("mustTake")}
        </p>
      ) : null}
      <ErrorLine error={claim.assign.error} />
      <OutcomeSection detail={detail} viewer={viewer} />
      {verificationPart?.(detail)}
      {mine || hasPermission(viewer, "cases.assign") ? (
        <CaseNoteForm publicId={detail.publicId} />
      ) : (
        <p className="text-xs text-slate-600">{t("noteOnlyAssignee")}</p>
      )}
      <p className="rounded-md bg-sky-50 px-2 py-1 text-xs text-sky-900">{t("providerNotice")}</p>
      {/* Only for a member holding coaf.report: anyone else's page holds nothing of it, not even its messages. */}
      {hasPermission(viewer, "coaf.report") ? <CoafReportAction publicId={detail.publicId} /> : null}
    </section>
  );
}
