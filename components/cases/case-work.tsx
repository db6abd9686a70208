"use client";

import { useTranslations } from "next-intl";
import { useCallback, useState, type ReactNode } from "react";

import { hasPermission } from "@/lib/auth/permissions";
import { useCase } from "@/lib/cases/hooks";
import type { CaseDetail } from "@/lib/cases/types";

import { CaseClaim } from "./case-claim";
import { CaseFacts, CaseStageNotes } from "./case-facts";
import { useFocusNeverLost } from "./case-panel-focus";
import { CasePanelHeading } from "./case-panel-heading";
import { CaseTimeline } from "./case-timeline";
import { ErrorLine } from "./error-line";
import { NoteForm } from "./note-form";
import { OutcomeSection } from "./outcome-section";
import { CASE_SHORTCUTS, ShortcutsDialog } from "./shortcuts-dialog";
import { useCaseClaim } from "./use-case-claim";
import { useCaseShortcuts } from "./use-case-shortcuts";
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
  const query = useCase(publicId, context);
  if (!query.data) return null;
  const detail = query.data.case;
  if (!detail) return <p className="text-sm text-slate-600">{t("none")}</p>;
  return <CasePanel detail={detail} viewer={viewer} context={context} verificationPart={verificationPart} />;
}

/** The case's timeline (below the evidence on the case page). */
export function CaseHistory({ publicId, context = "" }: { publicId: string; context?: string }) {
  const query = useCase(publicId, context);
  const detail = query.data?.case;
  return detail ? <CaseTimeline detail={detail} /> : null;
}

function CasePanel({
  detail,
  viewer,
  context,
  verificationPart,
}: {
  detail: CaseDetail;
  viewer: Viewer;
  context: string;
  verificationPart?: VerificationPart;
}) {
  const t = useTranslations("cases.panel");
  const [helpOpen, setHelpOpen] = useState(false);
  const openHelp = useCallback(() => setHelpOpen(true), []);
  useCaseShortcuts({ detail, context, onHelp: openHelp });
  useFocusNeverLost();
  useNextCaseAhead(detail.next, context);
  const claim = useCaseClaim(detail, viewer);
  const { mine } = claim;
  const open = detail.status === "open";
  return (
    <section aria-labelledby="case-panel-title" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
      <CasePanelHeading detail={detail} context={context} onHelp={openHelp} />
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
      <ErrorLine error={claim.assign.error} />
      <OutcomeSection detail={detail} viewer={viewer} />
      {verificationPart?.(detail)}
      {mine || hasPermission(viewer, "cases.assign") ? (
        <NoteForm publicId={detail.publicId} />
      ) : (
        <p className="text-xs text-slate-600">{t("noteOnlyAssignee")}</p>
      )}
      <p className="rounded-md bg-sky-50 px-2 py-1 text-xs text-sky-900">{t("providerNotice")}</p>
      <ShortcutsDialog open={helpOpen} onOpenChange={setHelpOpen} shortcuts={CASE_SHORTCUTS} />
    </section>
  );
}
