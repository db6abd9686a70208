"use client";

import { useTranslations } from "next-intl";
import { useEffect, useId, useRef } from "react";

import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { saveBlob } from "@/lib/shared/api-client/csv-download";

/*
 * The ten recovery codes, shown once (the server keeps only their hashes): copy, download as a text file,
 * and an explicit "I have saved these codes" that closes the panel. Focus lands on the panel's heading when
 * it appears, since it is the one thing the member must not miss.
 */
export function RecoveryCodesPanel({ codes, onAcknowledge }: { codes: readonly string[]; onAcknowledge: () => void }) {
  const t = useTranslations("account.recovery");
  const heading = useRef<HTMLHeadingElement>(null);
  const id = useId();

  useEffect(() => {
    heading.current?.focus();
  }, []);

  const text = codes.join("\n");
  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-4 rounded-lg border-2 border-amber-300 bg-amber-50 p-4 text-amber-950">
      <h2 id={`${id}-heading`} ref={heading} tabIndex={-1} className="text-lg font-semibold focus:outline-none">
        {t("title")}
      </h2>
      <p className="text-sm">{t("body")}</p>
      <ul
        aria-label={t("listLabel")}
        data-testid="recovery-codes"
        className="grid grid-cols-1 gap-2 font-mono text-sm min-[360px]:grid-cols-2"
      >
        {codes.map((code) => (
          <li key={code} className="rounded border border-amber-200 bg-white px-3 py-1.5 text-slate-900">
            {code}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap items-center gap-2">
        <CopyButton value={text} label={t("copy")} />
        <Button variant="secondary" onClick={() => saveBlob(new Blob([`${text}\n`], { type: "text/plain;charset=utf-8" }), t("fileName"))}>
          {t("download")}
        </Button>
      </div>
      <Button onClick={onAcknowledge}>{t("acknowledge")}</Button>
    </section>
  );
}
