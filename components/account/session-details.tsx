import { useFormatter, useTranslations } from "next-intl";

import type { SessionDto } from "@/lib/account/types";
import { DATE_TIME_FORMAT } from "@/lib/shared/date-format";

/**
 * A device's sessions: the address, the method of the latest sign-in, when the first started, the last activity and
 * how many sessions the device holds; in the member's own list (account.sessions) and in an admin's view of a
 * member's (staff.sessions), each worded by its own messages.
 */
export function SessionDetails({
  session,
  messages,
  className,
}: {
  session: Pick<SessionDto, "ip" | "method" | "createdAt" | "lastSeenAt" | "count">;
  messages: "account.sessions" | "staff.sessions";
  /** Spacing and text size where it sits. */
  className: string;
}) {
  const t = useTranslations(messages);
  const format = useFormatter();
  const when = (iso: string) => format.dateTime(new Date(iso), DATE_TIME_FORMAT);
  return (
    <dl className={`grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-slate-700 ${className}`}>
      <dt className="text-slate-500">{t("address")}</dt>
      <dd className="break-all">{session.ip ?? t("unknownAddress")}</dd>
      <dt className="text-slate-500">{t("method")}</dt>
      <dd>{t(`methods.${session.method}`)}</dd>
      <dt className="text-slate-500">{t("started")}</dt>
      <dd>{when(session.createdAt)}</dd>
      <dt className="text-slate-500">{t("lastActive")}</dt>
      <dd>{when(session.lastSeenAt)}</dd>
      <dt className="text-slate-500">{t("count")}</dt>
      <dd data-testid="session-count">{format.number(session.count)}</dd>
    </dl>
  );
}
