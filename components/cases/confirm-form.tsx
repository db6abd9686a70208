"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";

import { Button } from "@/components/ui/button";
import { useConfirmOutcome } from "@/lib/cases/hooks";

import { leaveForm } from "./case-panel-focus";
import { ErrorLine } from "./error-line";
import { TextBox } from "./text-box";

/** The second pair of eyes: agree or disagree with a recorded outcome, with an optional comment. */
export function ConfirmForm({ publicId }: { publicId: string }) {
  const t = useTranslations("cases.confirm");
  const confirm = useConfirmOutcome(publicId);
  const [comment, setComment] = useState("");
  const done = () => leaveForm("case-confirm-form");
  return (
    <form
      id="case-confirm-form"
      onSubmit={(event) => event.preventDefault()}
      className="space-y-2 rounded-md border border-sky-200 bg-sky-50 p-3"
      aria-label={t("title")}
    >
      <h4 className="text-sm font-semibold">{t("title")}</h4>
      <TextBox
        id="case-confirm-comment"
        label={t("comment")}
        value={comment}
        onChange={(event) => setComment(event.target.value)}
        className="bg-white"
      />
      <ErrorLine error={confirm.error} />
      {confirm.isSuccess ? <p role="status">{t("done")}</p> : null}
      <div className="flex gap-2">
        <Button id="case-agree" pending={confirm.isPending} onClick={() => confirm.mutate({ agree: true, comment }, { onSuccess: done })}>
          {t("agree")}
        </Button>
        <Button variant="danger" pending={confirm.isPending} onClick={() => confirm.mutate({ agree: false, comment }, { onSuccess: done })}>
          {t("disagree")}
        </Button>
      </div>
    </form>
  );
}
