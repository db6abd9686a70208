"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";

import { Alert } from "@/components/ui/alert";
import { AppLink as Link } from "@/components/ui/app-link";
import { Button } from "@/components/ui/button";
import { useLazyDialog } from "@/components/ui/lazy-dialog";

/*
 * "Report to COAF" on the case page, drawn only for a member holding `coaf.report` (the page decides). A dialog:
 * the summary, the grounds (at least one), optional operations (date, amount, description; added and removed), sent
 * as POST /api/cases/{publicId}/suspicious-activity (its step-up asked by the API client). Each bad field is named
 * beside it, by the form's own checks before anything is sent and by the server's field errors after. Once opened, a
 * link to the reports page; nothing about the report joins the case's history or its queries (no tipping off).
 */

const loadDialog = () => import("./coaf-report-form").then((module) => module.CoafReportDialog);

export function CoafReportAction({ publicId }: { publicId: string }) {
  const t = useTranslations("coaf.report");
  // The dialog's code comes when the page is idle or the button is reached (components/ui/dialog.tsx).
  const dialog = useLazyDialog(loadDialog);
  // The report just opened, for the link to its row on the reports page.
  const [opened, setOpened] = useState<string | null>(null);
  const ReportDialog = dialog.Dialog;
  return (
    <div className="space-y-2" data-testid="coaf-report">
      <Button
        variant="secondary"
        {...dialog.trigger}
        onClick={() => {
          setOpened(null);
          dialog.trigger.onClick();
        }}
      >
        {t("open")}
      </Button>
      {ReportDialog ? (
        <ReportDialog
          publicId={publicId}
          open={dialog.open}
          onOpenChange={dialog.setOpen}
          onOpened={(id) => {
            dialog.setOpen(false);
            setOpened(id);
          }}
        />
      ) : null}
      <div aria-live="polite">
        {opened ? (
          <Alert tone="success">
            {t("opened")}{" "}
            <Link href={`/compliance/coaf#report-${opened}`} className="font-medium underline underline-offset-2">
              {t("openReports")}
            </Link>
          </Alert>
        ) : null}
      </div>
    </div>
  );
}
