"use client";

import { useTranslations } from "next-intl";

import { Button } from "@/components/ui/button";
import { withQueryProvider } from "@/components/ui/query-provider";
import { useViewNavigation } from "@/components/ui/view-navigation";
import { useVerificationChanges } from "@/lib/webhooks/hooks";

import { LIVE_NOTICE_REGION } from "./list-navigation";

/*
 * On an open list: says that verifications were created or changed since it was drawn (the service's webhooks,
 * through the dashboard's own store) and offers to show them. The list is not drawn again under the analyst's eyes:
 * rows never jump while someone reads them; the analyst chooses when. The notice floats over the page's foot rather
 * than taking a line above the table, which pushed the rows down as it appeared (a layout shift of about 0.04 on a
 * list of 100 rows while a team worked). Loaded after the page (./list-controls.tsx, LiveChangesIsland), with
 * react-query for its feed.
 */
export default withQueryProvider(LiveChangesNotice);

function LiveChangesNotice() {
  const t = useTranslations("events.live");
  const navigation = useViewNavigation();
  const { arrived, clear } = useVerificationChanges();
  const count = new Set(arrived.map((change) => change.publicId)).size;

  // The live region is always rendered, so screen readers announce the message when it appears.
  return (
    <div role="status" aria-live="polite" className={LIVE_NOTICE_REGION}>
      {count > 0 ? (
        <div className="pointer-events-auto flex max-w-full flex-wrap items-center justify-between gap-3 rounded-md border border-brand-100 bg-brand-50 px-4 py-2 text-sm text-slate-900 shadow-lg">
          <span>{t("arrived", { count })}</span>
          <Button
            variant="secondary"
            className="py-1"
            onClick={() => {
              clear();
              navigation.refresh();
            }}
          >
            {t("show")}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
