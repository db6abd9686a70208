"use client";

import { lazy, type ReactNode } from "react";

import { AfterLoad } from "@/components/ui/after-load";

/*
 * The signed-in shell's controls whose script the first paint does not need: the top bar's search, the language choice
 * and signing out. Each is drawn by the server as its `standIn` from its form module, shared with the control
 * (components/cases/case-search-form.tsx, ./language-select.tsx, components/auth/sign-out-form.tsx), and its code is
 * fetched once the page has loaded, so no page's first load carries it. The search and the language stand-ins are
 * disabled (they take no input the swap could lose); signing out works without a script (the form posts).
 */
const ISLANDS = {
  search: lazy(() => import("@/components/cases/case-search").then((module) => ({ default: module.CaseSearch }))),
  language: lazy(() => import("./language-switcher").then((module) => ({ default: module.LanguageSwitcher }))),
  signOut: lazy(() => import("@/components/auth/sign-out-button").then((module) => ({ default: module.SignOutButton }))),
};

export function ShellIsland({ name, standIn }: { name: keyof typeof ISLANDS; standIn: ReactNode }) {
  const Island = ISLANDS[name];
  return (
    <AfterLoad standIn={standIn}>
      <Island />
    </AfterLoad>
  );
}
