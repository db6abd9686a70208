"use client";

import { useTranslations } from "next-intl";

import { Button } from "@/components/ui/button";
import { useLazyDialog } from "@/components/ui/lazy-dialog";
import { useViewNavigation } from "@/components/ui/view-navigation";

/*
 * "New verification" in the list's toolbar. The dialog and its form (./create-verification-form.tsx) are
 * loaded when the button is reached, not with the list. A verification created, the list draws its view again.
 */

const loadDialog = () => import("./create-verification-form").then((module) => module.CreateVerificationForm);

export function CreateVerificationDialog() {
  const t = useTranslations("verifications.create");
  const dialog = useLazyDialog(loadDialog);
  const { refresh } = useViewNavigation();
  const CreateVerificationForm = dialog.Dialog;
  return (
    <>
      <Button {...dialog.trigger}>{t("open")}</Button>
      {CreateVerificationForm ? <CreateVerificationForm open={dialog.open} onOpenChange={dialog.setOpen} onCreated={refresh} /> : null}
    </>
  );
}
