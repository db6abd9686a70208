import { useTranslations } from "next-intl";

import { TitledSection } from "@/components/ui/titled-section";
import type { SessionDto } from "@/lib/account/types";

import { EndOtherSessionsButton, EndSessionButton, SessionActions, SessionsNotice } from "./session-actions";
import { SessionDetails } from "./session-details";

/*
 * The member's live sessions, drawn on the server, once per device (the server groups them:
 * lib/account/server/devices.ts), this one's device marked: ending a device ends every session on it, each on its next
 * request (the server checks the session on every request). "End all other sessions" (other devices', and this
 * device's older ones) asks first. The buttons are islands (./session-actions.tsx); after either, the page is drawn
 * again.
 */
export function SessionsSection({ sessions }: { sessions: readonly SessionDto[] }) {
  const t = useTranslations("account.sessions");
  const device = (session: SessionDto) =>
    t("device", { browser: session.browser ?? t("unknownBrowser"), system: session.system ?? t("unknownSystem") });
  const others = sessions.filter((session) => !session.current);
  // Every session but this one: the other devices' and this device's older sign-ins.
  const otherCount = sessions.reduce((sum, session) => sum + session.count, 0) - (sessions.some((session) => session.current) ? 1 : 0);

  return (
    <SessionActions otherCount={otherCount}>
      <TitledSection
        id="sessions-heading"
        title={t("heading")}
        lead={t("intro")}
        leadClassName="max-w-2xl text-slate-600"
        className="space-y-4"
      >
        <SessionsNotice />
        <ul aria-label={t("listLabel")} className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {sessions.map((session) => (
            <li key={session.id} className="flex flex-wrap items-start justify-between gap-3 p-4" data-testid="session">
              <div className="min-w-0">
                <p className="font-medium break-words text-slate-900">
                  {device(session)}
                  {session.current ? (
                    <span className="ml-2 inline-block rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-900">
                      {t("current")}
                    </span>
                  ) : null}
                </p>
                <SessionDetails session={session} messages="account.sessions" className="mt-1 text-sm" />
              </div>
              {session.current ? null : <EndSessionButton session={{ id: session.id, device: device(session) }} />}
            </li>
          ))}
        </ul>
        {others.length > 0 || otherCount > 0 ? <EndOtherSessionsButton /> : <p className="text-sm text-slate-600">{t("noOthers")}</p>}
      </TitledSection>
    </SessionActions>
  );
}
