import { useTranslations } from "next-intl";

import { Badge, type BadgeTone } from "@/components/ui/badge";

/*
 * Status and step states, always as colour AND text (and a symbol): never colour alone. Values the
 * contract does not show are displayed as received, in the neutral tone. No "use client": drawn on the server on the
 * list, in the browser elsewhere.
 */

const TONES: Record<string, { tone: BadgeTone; symbol: string }> = {
  approved: { tone: "success", symbol: "✓" },
  review: { tone: "warning", symbol: "!" },
  reproved: { tone: "danger", symbol: "✕" },
  started: { tone: "info", symbol: "…" },
  pending: { tone: "info", symbol: "…" },
  not_opened: { tone: "neutral", symbol: "○" },
};

function useStateLabel() {
  const t = useTranslations("verifications.status");
  return (value: string | null) => {
    if (value === null) return t("unknown");
    return t.has(value as "approved") ? t(value as "approved") : value;
  };
}

export function StatusBadge({ status }: { status: string | null }) {
  const label = useStateLabel();
  const style = (status && TONES[status]) || { tone: "neutral" as const, symbol: "·" };
  return (
    <Badge tone={style.tone}>
      <span aria-hidden="true">{style.symbol}</span>
      {label(status)}
    </Badge>
  );
}

export function useStepName() {
  const t = useTranslations("verifications.steps");
  return (name: string) => (t.has(name as "ocr") && name !== "label" && name !== "short" ? t(name as "ocr") : name);
}

/**
 * One step's state, e.g. "OCR: Approved". The step name is part of the text, not only the position.
 * `compact`: the step's short name and the symbol on screen (the list's one-line rows), the full text for
 * screen readers and on hover.
 */
export function StepBadge({ name, state, compact = false }: { name: string; state: string | null; compact?: boolean }) {
  const t = useTranslations("verifications.steps");
  const stepName = useStepName();
  const label = useStateLabel();
  const style = (state && TONES[state]) || { tone: "neutral" as const, symbol: "·" };
  const full = t("label", { step: stepName(name), state: label(state) });
  if (compact) {
    const short = t.has(`short.${name}` as "label") ? t(`short.${name}` as "label") : name.slice(0, 3).toUpperCase();
    return (
      <Badge tone={style.tone} className="px-1.5 whitespace-nowrap">
        <span aria-hidden="true" title={full}>
          {short} {style.symbol}
        </span>
        <span className="sr-only">{full}</span>
      </Badge>
    );
  }
  return (
    <Badge tone={style.tone} className="whitespace-nowrap">
      <span aria-hidden="true">{style.symbol}</span>
      {t("label", { step: stepName(name), state: label(state) })}
    </Badge>
  );
}
