"use client";

import { useTranslations } from "next-intl";

import { Alert } from "@/components/ui/alert";
import { AppLink as Link } from "@/components/ui/app-link";
import { Button } from "@/components/ui/button";
import { DialogClose } from "@/components/ui/dialog";
import { useDateTime } from "@/components/ui/use-formatters";
import type { CreateVerificationResponse } from "@/lib/verifications/types";

/** The create dialog's answer: the new verification (or the existing one, for a repeat) and where to go next. */
export function CreatedVerification({
  created,
  onAnother,
}: {
  created: CreateVerificationResponse["created"] | undefined;
  onAnother: () => void;
}) {
  const t = useTranslations("verifications.create");
  const dateTime = useDateTime();
  return (
    <div className="space-y-4">
      {/* A repeat of the same ref_id and body answers the existing verification (200): said plainly. */}
      <Alert tone={created?.replayed ? "info" : "success"} title={t(created?.replayed ? "replayed" : "created")}>
        {created?.publicId ? (
          <p>
            {t(created.replayed ? "replayedBody" : "createdBody")}{" "}
            <Link
              href={`/verifications/${encodeURIComponent(created.publicId)}`}
              className="font-mono font-medium text-emerald-900 underline"
            >
              {created.publicId}
            </Link>
          </p>
        ) : (
          <p>{t("createdNoId")}</p>
        )}
        {created?.status ? <p className="mt-1">{t("currentStatus", { status: created.status })}</p> : null}
        {created?.expiresAt ? <p className="mt-1">{t("expiresAt", { date: dateTime(created.expiresAt) ?? created.expiresAt })}</p> : null}
      </Alert>
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onAnother}>
          {t("another")}
        </Button>
        {created?.publicId ? (
          <Link
            href={`/verifications/${encodeURIComponent(created.publicId)}`}
            className="inline-flex items-center rounded-md bg-brand-700 px-4 py-2 text-sm font-medium text-white hover:bg-brand-800"
            autoFocus
          >
            {t("openCreated")}
          </Link>
        ) : (
          <DialogClose asChild>
            <Button>{t("close")}</Button>
          </DialogClose>
        )}
      </div>
    </div>
  );
}
