"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";

import { Button } from "@/components/ui/button";
import { verificationKeys } from "@/lib/verifications/queries";
import { useVerificationChanges } from "@/lib/webhooks/queries";

/*
 * On an open list: says that verifications were created or changed since it was loaded (the service's
 * webhooks, through the dashboard's own store) and offers to show them. The list is not reloaded under
 * the analyst's eyes: rows never jump while someone reads them; the analyst chooses when.
 */
export function LiveChangesNotice() {
  const t = useTranslations("events.live");
  const queryClient = useQueryClient();
  const { arrived, clear } = useVerificationChanges();
  const count = new Set(arrived.map((change) => change.publicId)).size;

  // The live region is always rendered, so screen readers announce the message when it appears.
  return (
    <div role="status" aria-live="polite" className="min-h-0">
      {count > 0 ? (
        <div className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-brand-100 bg-brand-50 px-4 py-2 text-sm text-slate-900">
          <span>{t("arrived", { count })}</span>
          <Button
            variant="secondary"
            className="py-1"
            onClick={() => {
              clear();
              void queryClient.invalidateQueries({ queryKey: verificationKeys.lists() });
            }}
          >
            {t("show")}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
