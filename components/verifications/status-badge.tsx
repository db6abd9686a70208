import { useTranslations } from "next-intl";

import { badgeClass, type BadgeTone } from "@/components/ui/badge";

/*
 * Status and step states, always as colour AND text (and a symbol): never colour alone. Values the
 * contract does not show are displayed as received, in the neutral tone. No "use client": the list works out its
 * badges on the server (its `…View` values) and draws them in the browser (./verification-rows.tsx); other pages
 * draw them wherever they are.
 */

const TONES: Record<string, { tone: BadgeTone; symbol: string }> = {
  approved: { tone: "success", symbol: "✓" },
  review: { tone: "warning", symbol: "!" },
  reproved: { tone: "danger", symbol: "✕" },
  started: { tone: "info", symbol: "…" },
  pending: { tone: "info", symbol: "…" },
  not_opened: { tone: "neutral", symbol: "○" },
};

const styleOf = (value: string | null) => (value && TONES[value]) || { tone: "neutral" as const, symbol: "·" };

/** A state as a badge shows it: its tone, its symbol and its words. */
export interface StateView {
  tone: BadgeTone;
  symbol: string;
  label: string;
}

/** A step's state in a list's row: the step's short name and the symbol on screen, the full "OCR: Approved" for the rest. */
export interface CompactStepView {
  tone: BadgeTone;
  symbol: string;
  short: string;
  full: string;
}

function useStateLabel() {
  const t = useTranslations("verifications.status");
  return (value: string | null) => {
    if (value === null) return t("unknown");
    return t.has(value as "approved") ? t(value as "approved") : value;
  };
}

/** A verification's status, or a step's state, as a badge shows it. */
export function useStateView() {
  const label = useStateLabel();
  return (value: string | null): StateView => ({ ...styleOf(value), label: label(value) });
}

export function useStepName() {
  const t = useTranslations("verifications.steps");
  return (name: string) => (t.has(name as "ocr") && name !== "label" && name !== "short" ? t(name as "ocr") : name);
}

/**
 * A step's state for a list's one-line row: "OCR: Approved" in full (the step name is part of the text, not only the
 * position), its short name and symbol for the screen.
 */
export function useCompactStepView() {
  const t = useTranslations("verifications.steps");
  const stepName = useStepName();
  const state = useStateView();
  return (name: string, value: string | null): CompactStepView => {
    const { tone, symbol, label } = state(value);
    const short = t.has(`short.${name}` as "label") ? t(`short.${name}` as "label") : name.slice(0, 3).toUpperCase();
    return { tone, symbol, short, full: t("label", { step: stepName(name), state: label }) };
  };
}

/**
 * A state's badge as an element of its own, not a component's: a table cell lays out a lone HTML element with no
 * wrapper (DataCell).
 */
export function stateBadge(view: StateView) {
  return (
    <span className={badgeClass(view.tone)}>
      <span aria-hidden="true">{view.symbol}</span>
      {view.label}
    </span>
  );
}

/**
 * A step's badge in a list of them (`<ul className="steps">`): the item is the badge. The step's full words as the
 * tooltip and for screen readers, its short name and symbol on screen (`.step`).
 */
export function CompactStepBadge({ view }: { view: CompactStepView }) {
  return (
    <li className={badgeClass(view.tone, "step")} title={view.full}>
      <span aria-hidden="true">{`${view.short} ${view.symbol}`}</span>
      <span className="sr-only">{view.full}</span>
    </li>
  );
}

export function StatusBadge({ status }: { status: string | null }) {
  return stateBadge(useStateView()(status));
}
