"use client";

import { useState } from "react";

import { useAssignCase } from "@/lib/cases/hooks";
import type { CaseDetail } from "@/lib/cases/types";

import type { Viewer } from "./viewer";

/**
 * The case's assignment as the panel offers it: claim, unassign, and whether the claim button shows.
 *
 * A background read (the live stream, a poll) never takes the claim button from under the analyst's pointer:
 * when someone else takes the case while it is offered here, the panel says who holds it and the button stays
 * until the analyst acts (the server then answers who holds it, and the button goes). Adjusted while rendering.
 */
export function useCaseClaim(detail: CaseDetail, viewer: Viewer) {
  const assign = useAssignCase(detail.publicId);
  const mine = detail.assignee?.id === viewer.id;
  const assigneeId = detail.assignee?.id ?? null;
  const [shownAssignee, setShownAssignee] = useState(assigneeId);
  const [keepClaim, setKeepClaim] = useState(false);
  const [claimed, setClaimed] = useState(false);
  if (assigneeId !== shownAssignee) {
    setShownAssignee(assigneeId);
    setKeepClaim(shownAssignee === null && assigneeId !== null && assigneeId !== viewer.id && !claimed);
    if (assigneeId === null) setClaimed(false);
  }
  const claim = () => {
    setClaimed(true);
    assign.mutate({ assignee: "me" }, { onSettled: () => setKeepClaim(false) });
  };
  const offerClaim = !detail.assignee || (keepClaim && !mine);
  return { assign, mine, claim, offerClaim, unassign: () => assign.mutate({ assignee: null }) };
}
