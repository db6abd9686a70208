"use client";

import { createContext, useContext, type ReactNode } from "react";

import { TemplateFactsContext } from "@/components/cases/template-facts";
import { UNKNOWN_PANEL_FACTS, type PanelFacts } from "@/lib/verifications/panel-facts";

const NeedsDocumentContext = createContext(UNKNOWN_PANEL_FACTS.needsDocument);

/**
 * The verification's facts for the case panel (its decision templates' `{flow}` and `{failing_step}`, whether asking
 * to verify again needs the document typed), worked out by the server page from the verification it drew
 * (lib/verifications/panel-facts.ts): never a second read of the service, nor the verification sent twice.
 */
export function CaseTemplateFacts({ facts, children }: { facts: PanelFacts; children: ReactNode }) {
  return (
    <TemplateFactsContext.Provider value={facts.template}>
      <NeedsDocumentContext.Provider value={facts.needsDocument}>{children}</NeedsDocumentContext.Provider>
    </TemplateFactsContext.Provider>
  );
}

/** Whether asking to verify again needs the document typed (true where the page could not tell). */
export const useNeedsDocument = () => useContext(NeedsDocumentContext);
