"use client";

import { useTranslations } from "next-intl";

/**
 * Says, in words, that the data on screen is masked, and why: the service's key lacks the unmasked permission,
 * or the member lacks `personal_data.unmasked` and the dashboard masked it.
 */
export function MaskedMarker({ by = "service" }: { by?: "service" | "dashboard" }) {
  const t = useTranslations("verifications.masked");
  return (
    <div
      role="note"
      data-testid="masked-marker"
      data-masked-by={by}
      className="flex gap-3 rounded-lg border border-slate-300 bg-slate-100 p-3 text-sm text-slate-800"
    >
      <span aria-hidden="true" className="font-mono font-bold">
        ***
      </span>
      <div>
        <p className="font-semibold">{t("title")}</p>
        <p>{t(by === "dashboard" ? "byDashboard" : "body")}</p>
      </div>
    </div>
  );
}
