"use client";

import { useFormatter, useNow, useTranslations } from "next-intl";

/**
 * The flow's expiry with the time left or since it ended ("in 2 hours", "3 minutes ago"), kept current while the page
 * stays open: the header around it is drawn by the server (./verification-header.tsx). `date` is the expiry written
 * in the display time zone.
 */
export function FlowExpiryTime({ expiresAt, date }: { expiresAt: string; date: string }) {
  const t = useTranslations("verifications.detail");
  const format = useFormatter();
  const now = useNow({ updateInterval: 60_000 });
  const at = new Date(expiresAt);
  const relative = format.relativeTime(at, now);
  return (
    <time dateTime={expiresAt} data-testid="verification-expiry">
      {at.getTime() <= now.getTime() ? t("expiredWhen", { date, relative }) : t("expiresWhen", { date, relative })}
    </time>
  );
}
