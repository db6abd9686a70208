import { useTranslations } from "next-intl";

import { Alert } from "@/components/ui/alert";
import { useDateTime } from "@/components/ui/use-formatters";
import { daysLeft, expiryWarning } from "@/lib/connections/key-life";
import type { ConnectionSummary } from "@/lib/connections/types";

/*
 * A connection's key and its life on the connections page (lib/connections/key-life.ts): its hint, when it expires
 * (stated, or the provider's default validity, said so) with the days left, a warning from 30 days before, and after a
 * rotation until when the provider keeps the previous key working.
 */
export function KeyLife({ connection, now = new Date() }: { connection: ConnectionSummary; now?: Date }) {
  const t = useTranslations("connections.key");
  const dateTime = useDateTime();
  const expiresAt = connection.keyExpiresAt ? new Date(connection.keyExpiresAt) : null;
  const warning = expiryWarning(expiresAt, now);
  const previous = connection.previousKey && new Date(connection.previousKey.until) > now ? connection.previousKey : null;
  return (
    <div className="space-y-2 text-sm">
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 sm:grid-cols-2">
        <div className="flex justify-between gap-2">
          <dt className="text-slate-600">{t("hint")}</dt>
          <dd className="font-mono text-slate-900">
            {connection.keyHint.startsWith("lz_") ? connection.keyHint : `…${connection.keyHint}`}
          </dd>
        </div>
        <div className="flex justify-between gap-2">
          <dt className="text-slate-600">{t("expires")}</dt>
          <dd className="text-right text-slate-900">
            {expiresAt
              ? t(connection.keyExpiryStated ? "expiresOn" : "expiresByDefault", {
                  at: dateTime(connection.keyExpiresAt) ?? "",
                  days: daysLeft(expiresAt, now),
                })
              : t("unknown")}
          </dd>
        </div>
      </dl>
      {warning ? (
        <Alert tone={warning === "30" ? "warning" : "error"}>
          {warning === "expired" ? t("expired") : t("expiresSoon", { days: daysLeft(expiresAt!, now) })}
        </Alert>
      ) : null}
      {previous ? <p className="text-slate-700">{t("previous", { hint: previous.hint, until: dateTime(previous.until) ?? "" })}</p> : null}
    </div>
  );
}
