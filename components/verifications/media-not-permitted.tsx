"use client";

import { useTranslations } from "next-intl";

/**
 * In place of the images for a member without `media.read`: says why there are none. No media token is asked
 * for (the page does not render the viewers), and the server would refuse one anyway.
 */
export function MediaNotPermitted() {
  const t = useTranslations("verifications.media");
  return (
    <section aria-labelledby="media-heading" className="space-y-2" data-testid="media-not-permitted">
      <h2 id="media-heading" className="text-lg font-semibold">
        {t("title")}
      </h2>
      <p role="note" className="rounded-lg border border-slate-300 bg-slate-100 p-3 text-sm text-slate-800">
        {t("notPermitted")}
      </p>
    </section>
  );
}
