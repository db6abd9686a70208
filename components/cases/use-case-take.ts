"use client";

import { useEffect, useRef, useState } from "react";

import { hasPermission } from "@/lib/auth/has-permission";
import { stageOf, type Recommendation } from "@/lib/cases/rules";
import type { TakeMode } from "@/lib/cases/take-mode";
import type { CaseDetail } from "@/lib/cases/types";

import { byId, reasonFocus } from "./case-panel-focus";
import type { useCaseClaim } from "./use-case-claim";
import type { Viewer } from "./viewer";

/**
 * Taking an unassigned case as the team's setting says (lib/cases/take-mode.ts), so no key is wasted on a separate
 * claim: `decide` picks a recommendation in the form when the viewer holds the case; otherwise, where the claim is
 * offered, it takes the case first (the claim itself: its audit, its 409 naming who holds it) and picks the
 * recommendation once the form shows, or, with "never", says the case must be taken first (`mustTake`). With
 * "on_open", an open, unassigned case that is not an escalation is taken as its page opens, once.
 */
export function useCaseTake(detail: CaseDetail, viewer: Viewer, claim: ReturnType<typeof useCaseClaim>, takeMode: TakeMode) {
  const [mustTake, setMustTake] = useState<string | null>(null);
  const intent = useRef<Recommendation | null>(null);
  const openedOn = useRef<string | null>(null);
  const { mine } = claim;
  const failed = claim.assign.isError;

  useEffect(() => {
    if (takeMode !== "on_open" || openedOn.current === detail.publicId) return;
    openedOn.current = detail.publicId;
    const takeable = detail.status === "open" && !detail.assignee && stageOf(detail) !== "escalated";
    if (takeable && hasPermission(viewer, "cases.work")) claim.claim();
  });

  useEffect(() => {
    if (failed) intent.current = null;
    if (!mine || !intent.current) return;
    const value = intent.current;
    intent.current = null;
    reasonFocus.pending = true;
    byId(`case-rec-${value}`)?.click();
  }, [mine, failed]);

  function decide(value: Recommendation): boolean {
    const radio = byId(`case-rec-${value}`);
    if (radio) {
      // The reasons of that recommendation appear after the render: the decision form then focuses the first one.
      reasonFocus.pending = true;
      radio.click();
      return true;
    }
    // No claim offered (closed, held by someone the panel names, one's own escalation): nothing to take here.
    if (!byId("case-assign")) return false;
    if (takeMode === "never") {
      setMustTake(detail.publicId);
      return true;
    }
    intent.current = value;
    if (!claim.assign.isPending) claim.claim();
    return true;
  }

  return { decide, mustTake: mustTake === detail.publicId && !mine };
}
