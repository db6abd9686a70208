import { useTranslations } from "next-intl";

import { NoticeLine } from "./notice-line";

/**
 * Says, in words, that the data on screen is masked, and why: the service's key lacks the unmasked permission,
 * or the member lacks `personal_data.unmasked` and the dashboard masked it. One line; the why opens from it.
 */
export function MaskedMarker({ by = "service" }: { by?: "service" | "dashboard" }) {
  const t = useTranslations("verifications.masked");
  return (
    <NoticeLine mark="***" title={t("title")} data-testid="masked-marker" data-masked-by={by}>
      <p>{t(by === "dashboard" ? "byDashboard" : "body")}</p>
    </NoticeLine>
  );
}
