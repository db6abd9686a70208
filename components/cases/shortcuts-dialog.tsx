"use client";

import { useTranslations } from "next-intl";

import { Button } from "@/components/ui/button";
import { Dialog, DialogClose } from "@/components/ui/dialog";

const SHORTCUTS = [
  ["j", "down"],
  ["k", "up"],
  ["Enter", "open"],
  ["a", "assign"],
  ["?", "help"],
] as const;

export function ShortcutsDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const t = useTranslations("cases.shortcuts");
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t("title")}>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        {SHORTCUTS.map(([key, label]) => (
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
