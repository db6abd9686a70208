"use client";

import { useTranslations } from "next-intl";

import { Button } from "@/components/ui/button";
import { Dialog, DialogClose } from "@/components/ui/dialog";

/** The queue's shortcuts: [key, label key in cases.shortcuts]. */
export const QUEUE_SHORTCUTS = [
  ["j", "down"],
  ["k", "up"],
  ["Enter", "open"],
  ["a", "assign"],
  ["x", "pick"],
  ["Shift+x", "pickRange"],
  ["?", "help"],
] as const;

/** The case page's shortcuts (components/cases/use-case-shortcuts.ts). */
export const CASE_SHORTCUTS = [
  ["a", "caseAssign"],
  ["p", "caseApprove"],
  ["x", "caseReprove"],
  ["e", "caseEscalate"],
  ["1–9", "caseReason"],
  ["t", "caseTemplate"],
  ["c", "caseComment"],
  ["s", "caseSubmit"],
  ["Ctrl+Enter", "caseSend"],
  ["y", "caseConfirm"],
  ["n", "caseNote"],
  ["Esc", "caseLeaveField"],
  ["j", "caseNext"],
  ["k", "casePrevious"],
  ["u", "caseBack"],
  ["l", "caseRecord"],
  ["?", "help"],
] as const;

export function ShortcutsDialog({
  open,
  onOpenChange,
  shortcuts = QUEUE_SHORTCUTS,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  shortcuts?: ReadonlyArray<readonly [string, string]>;
}) {
  const t = useTranslations("cases.shortcuts");
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t("title")}>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        {shortcuts.map(([key, label]) => (
          <div key={key} className="contents">
            <dt>
              <kbd className="rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 font-mono">{key}</kbd>
            </dt>
            <dd>{t(label)}</dd>
          </div>
        ))}
      </dl>
      <div className="mt-4 flex justify-end">
        <DialogClose asChild>
          <Button variant="secondary">{t("close")}</Button>
        </DialogClose>
      </div>
    </Dialog>
  );
}
