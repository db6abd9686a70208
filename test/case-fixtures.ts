import { REASON_CODES, recommendationsOf } from "@/lib/cases/rules";
import type { CaseDetail, CaseSummary, ReasonCatalogue } from "@/lib/cases/types";

import { messages } from "./render";

/*
 * Cases as the case API answers them (lib/cases/types.ts), for component tests: an open, unassigned case with
 * no outcome unless told otherwise.
 */

export const ANALYST = { id: "staff-analyst", email: "analyst@example.test", name: "Analyst" };
export const OTHER = { id: "staff-other", email: "other@example.test", name: "Other" };

export function caseSummary(publicId: string, patch: Partial<CaseSummary> = {}): CaseSummary {
  return {
    publicId,
    queueId: "default",
    status: "open",
    upstreamStatus: "review",
    flags: [],
    priority: { score: 0, level: "normal", reasons: [] },
    documentMasked: "***.456.789-**",
    openedAt: "2026-03-09T12:00:00Z",
    verificationCreatedAt: "2026-03-09T11:00:00Z",
    dueAt: "2026-03-11T12:00:00Z",
    escalatedAt: null,
    closedAt: null,
    finalStatus: null,
    closedReason: null,
    upstreamReviewState: null,
    disagreement: false,
    assignee: null,
    recommendation: null,
    outcomeState: null,
    ...patch,
  };
}

export function caseDetail(publicId: string, patch: Partial<CaseDetail> = {}): CaseDetail {
  return {
    ...caseSummary(publicId),
    reasons: [],
    outcomeComment: null,
    outcomeCommentUnreadable: null,
    erasedAt: null,
    outcomeBy: null,
    outcomeAt: null,
    confirmedBy: null,
    confirmedAt: null,
    firstSeenAt: "2026-03-09T12:00:00Z",
    needsConfirmation: false,
    entries: [],
    upstreamEvents: [],
    previous: null,
    next: null,
    ...patch,
  };
}

/** GET /api/cases/reasons, labelled from the English catalogue as the route labels them. */
export const reasonCatalogue: ReasonCatalogue = {
  reasons: REASON_CODES.map((code) => ({
    code,
    label: (messages.cases.reasons as Record<string, string>)[code] ?? code,
    recommendations: recommendationsOf(code),
  })),
};
