"use client";

import { CaseWork, type Viewer } from "@/components/cases/case-work";
import { CaseTemplateFacts } from "@/components/verifications/case-template-facts";
import { CaseVerificationPart } from "@/components/verifications/case-verification-part";
import type { PanelFacts } from "@/lib/verifications/panel-facts";

/**
 * The decision panel's island: the case, read and worked in the browser, with what the verification adds to it (its
 * images read ahead for "next", asking to verify again) and the facts the server page worked out of the verification.
 */
export function DecisionPanel({
  publicId,
  viewer,
  queueContext,
  facts,
}: {
  publicId: string;
  viewer: Viewer;
  queueContext: string;
  facts: PanelFacts;
}) {
  return (
    <CaseTemplateFacts facts={facts}>
      <CaseWork
        publicId={publicId}
        viewer={viewer}
        context={queueContext}
        verificationPart={(caseDetail) => <CaseVerificationPart detail={caseDetail} viewer={viewer} />}
      />
    </CaseTemplateFacts>
  );
}
