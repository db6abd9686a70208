"use client";

import { useTranslations } from "next-intl";

import { BareButton } from "@/components/ui/button";
import { useLazyDialog } from "@/components/ui/lazy-dialog";
import type { Recommendation } from "@/lib/cases/rules";

const LINK =
  "text-xs font-medium text-brand-800 underline underline-offset-2 disabled:cursor-not-allowed disabled:text-slate-500 aria-busy:cursor-progress";

// Each dialog's code (and the template editor it brings) comes when the page is idle or its button is reached.
const loadSave = () => import("./template-dialogs").then((module) => module.SaveTemplateDialog);
const loadManage = () => import("./template-dialogs").then((module) => module.ManageTemplatesDialog);

/** What useLazyDialog's trigger gives a link-looking button: `busy` said as aria-busy. */
function triggerProps({ busy, ...rest }: ReturnType<typeof useLazyDialog>["trigger"]) {
  return { ...rest, "aria-busy": busy || undefined };
}

/** The decision panel's template tools: save the form as a template, and the member's own templates. */
export function TemplateTools({ kind, reasons, comment }: { kind: Recommendation; reasons: string[]; comment: string }) {
  const t = useTranslations("cases.templates");
  const save = useLazyDialog(loadSave);
  const manage = useLazyDialog(loadManage);
  const SaveDialog = save.Dialog;
  const ManageDialog = manage.Dialog;
  return (
    <div className="flex flex-wrap gap-x-3">
      <BareButton type="button" className={LINK} {...triggerProps(save.trigger)} disabled={reasons.length === 0}>
        {t("save")}
      </BareButton>
      {SaveDialog ? <SaveDialog kind={kind} reasons={reasons} comment={comment} open={save.open} onOpenChange={save.setOpen} /> : null}
      <BareButton type="button" className={LINK} {...triggerProps(manage.trigger)}>
        {t("manage")}
      </BareButton>
      {ManageDialog ? <ManageDialog open={manage.open} onOpenChange={manage.setOpen} /> : null}
    </div>
  );
}
