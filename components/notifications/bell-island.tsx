"use client";

import { useTranslations } from "next-intl";
import { lazy } from "react";

import { AfterLoad } from "@/components/ui/after-load";
import { BareButton } from "@/components/ui/button";

import { BELL_BUTTON, BellIcon } from "./bell-icon";

const LiveBell = lazy(() => import("./bell-live"));

/*
 * The header's bell, on every signed-in page. Its list and count are fetched in the browser (they never were part of
 * the first paint), so its code (and react-query with it) is fetched once the page has loaded; until then a stand-in
 * in its place, the same button, disabled (a click waits for the bell that can open).
 */
export function NotificationBellIsland({ currentConnection }: { currentConnection: string }) {
  const t = useTranslations("notifications");
  const standIn = (
    <div className="relative">
      <BareButton type="button" disabled aria-label={t("bell.label", { count: 0 })} className={BELL_BUTTON}>
        <BellIcon />
      </BareButton>
    </div>
  );
  return (
    <AfterLoad standIn={standIn}>
      <LiveBell currentConnection={currentConnection} />
    </AfterLoad>
  );
}
