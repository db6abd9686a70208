"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";

import { Button } from "@/components/ui/button";
import { useLazyDialog } from "@/components/ui/lazy-dialog";
import type { ViewScope } from "@/lib/views/rules";

/*
 * "Save this view": the page's filters and sort as they are in its address (both pages keep them there),
 * saved under a name the member gives; the view then shows in their navigation (SavedViewsList). A name
 * already used on this page is refused by the server (409 naming `name`) and shown on the field. The dialog
 * (./save-view-form.tsx) is loaded when its button is reached, not with the page.
 */

const loadDialog = () => import("./save-view-form").then((module) => module.SaveViewForm);

export function SaveViewDialog({ scope }: { scope: ViewScope }) {
  const t = useTranslations("views");
  const dialog = useLazyDialog(loadDialog);
  // Each opening mounts the dialog afresh (its key): an empty name, no earlier refusal.
  const [openings, setOpenings] = useState(0);
  const [saved, setSaved] = useState<string | null>(null);
  const SaveViewForm = dialog.Dialog;

  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button
        variant="secondary"
        {...dialog.trigger}
        onClick={() => {
          setOpenings((count) => count + 1);
          dialog.trigger.onClick();
        }}
      >
        {t("save.open")}
      </Button>
      {SaveViewForm ? (
        <SaveViewForm key={openings} scope={scope} open={dialog.open} onOpenChange={dialog.setOpen} onSaved={setSaved} />
      ) : null}
      <p role="status" className="text-sm text-slate-700">
        {saved ? t("save.saved", { name: saved }) : null}
      </p>
    </div>
  );
}
