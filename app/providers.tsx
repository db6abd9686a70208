"use client";

import { setNonce } from "get-nonce";
import type { ReactNode } from "react";

import { StepUpProvider } from "@/components/auth/step-up-provider";

/*
 * The signed-in pages' providers. No react-query here: each page whose client reads queries gives its own provider
 * (components/ui/query-provider.tsx, with the tab's one client), so a page that uses none loads none of it.
 */
export function Providers({ children, nonce }: { children: ReactNode; nonce?: string }) {
  // The dialogs' scroll lock injects a <style> element; with this response's nonce on it, the CSP can
  // refuse every other inline style element (lib/api/csp.ts).
  if (nonce) setNonce(nonce);
  // The step-up dialog: any call refused with `step_up_required` asks for the second factor in place.
  return <StepUpProvider>{children}</StepUpProvider>;
}
