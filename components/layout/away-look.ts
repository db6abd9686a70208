/** The "Away" switch's look, on or off: the switch (./away-toggle.tsx) and its stand-in until the page has loaded (./away-switch.tsx). */
export const awayClass = (away: boolean) =>
  `rounded-md px-2 py-1 ${away ? "bg-amber-100 text-amber-900" : "text-slate-700 hover:bg-slate-100"}`;
