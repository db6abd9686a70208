import type { BadgeTone } from "@/components/ui/badge";

import type { CompactStepView, StateView } from "./status-badge";

/*
 * A row of the list as the server works it out (./verification-table.tsx, `useRowViews`) and the browser draws it
 * (./verification-rows.tsx): a plain module, so both sides read the same values (a "use client" module's constants
 * are references on the server, not their values).
 */

export interface RowView {
  id: string;
  document: string;
  masked: boolean;
  /** The status, a key of RowWords' `states`. */
  status: string;
  refId: string | null;
  /** Each step's state: its badge's place in RowWords' `steps`. */
  steps: number[];
  identity: string;
  risk: string;
  /** The red flags' badges and their count in words; null: none. */
  flags: { title: string; badges: Array<{ tone: BadgeTone; text: string }> } | null;
  created: string;
  /** Null: not decided yet. */
  decided: string | null;
  caseAge: string | null;
  owner: string | null;
}

/** The words every row shares, once: the link's name and the placeholders (the cells' labels are the table's). */
export interface RowWords {
  /** The row link's accessible name, with ID_SLOT where the row's id goes. */
  open: string;
  masked: string;
  none: string;
  notDecided: string;
  /** The badges of the statuses and of the steps' states on the page, each written once. */
  states: Record<string, StateView>;
  steps: CompactStepView[];
}

/** Where the row's id goes in RowWords' `open` ("Open verification %id%"): the phrase is written once per page. */
export const ID_SLOT = "%id%";
