"use client";

import { useTranslations } from "next-intl";
import { lazy, Suspense, useEffect, useState } from "react";

import { useAfterLoad } from "@/components/ui/after-load";
import { Alert } from "@/components/ui/alert";
import { AppLink as Link } from "@/components/ui/app-link";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";

/*
 * "Report to COAF" on the case page, drawn only for a member holding `coaf.report` (the page decides). A dialog:
 * the summary, the grounds (at least one), optional operations (date, amount, description; added and removed), sent
 * as POST /api/cases/{publicId}/suspicious-activity (its step-up asked by the API client). Each bad field is named
 * beside it, by the form's own checks before anything is sent and by the server's field errors after. Once opened, a
 * link to the reports page; nothing about the report joins the case's history or its queries (no tipping off).
 */

// The form comes after the page's load (warmed then), or when the dialog is first opened if that is sooner.
const loadForm = () => import("./coaf-report-form");
const ReportForm = lazy(loadForm);

export function CoafReportAction({ publicId }: { publicId: string }) {
  const t = useTranslations("coaf.report");
  const [open, setOpen] = useState(false);
  // The report just opened, for the link to its row on the reports page.
  const [opened, setOpened] = useState<string | null>(null);
  const loaded = useAfterLoad();
  useEffect(() => {
    if (loaded) void loadForm().catch(() => undefined);
  }, [loaded]);
  return (
    <div className="space-y-2" data-testid="coaf-report">
      <Dialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (next) setOpened(null);
        }}
        trigger={<Button variant="secondary">{t("open")}</Button>}
        title={t("title")}
        description={t("description")}
      >
        {open ? (
          <Suspense fallback={<p className="text-sm text-slate-600">{t("loading")}</p>}>
            <ReportForm
              publicId={publicId}
              onOpened={(id) => {
                setOpen(false);
                setOpened(id);
              }}
            />
          </Suspense>
        ) : null}
      </Dialog>
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
