"use client";

import { lazy } from "react";

import { AfterLoad } from "@/components/ui/after-load";
import { BareButton } from "@/components/ui/button";

import { awayClass } from "./away-look";

const LiveAwayToggle = lazy(() => import("./away-toggle"));

type Labels = { away: string; awayNow: string; back: string };

/*
 * "Away" in the user menu, on every signed-in page. Whether the member is away is fetched in the browser (the switch
 * was disabled until it came), so the switch's code (and react-query with it) is fetched once the page has loaded;
 * until then the same switch, disabled.
 */
export function AwayToggleIsland({ labels }: { labels: Labels }) {
  const standIn = (
    <span className="flex items-center gap-1">
      <BareButton type="button" role="switch" aria-checked={false} disabled className={awayClass(false)}>
        {labels.away}
      </BareButton>
    </span>
  );
  return (
    <AfterLoad standIn={standIn}>
      <LiveAwayToggle labels={labels} />
    </AfterLoad>
  );
}
