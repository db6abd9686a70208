"use client";

import { useTranslations } from "next-intl";
import { useSearchParams } from "next/navigation";

import { CaseHistory, CaseWork, type Viewer } from "@/components/cases/case-work";
import { AppLink as Link } from "@/components/ui/app-link";
import { CaseTemplateFacts } from "@/components/verifications/case-template-facts";
import { CaseVerificationPart } from "@/components/verifications/case-verification-part";
import { VerificationEventHistory } from "@/components/verifications/verification-event-history";
import { VerificationEvidence } from "@/components/verifications/verification-evidence";
import { backHref } from "@/components/verifications/verification-neighbours";
import { CASES_PARAM, cleanQueueContext, queueHref } from "@/lib/cases/queue-context";
import type { ServerError } from "@/lib/shared/api-client/server-error";

export function VerificationPageClient({
  publicId,
  viewer,
  serverError,
}: {
  publicId: string;
  viewer: Viewer;
  serverError: ServerError | null;
}) {
  const t = useTranslations("verifications.detail");
  // The list the analyst came from (filters and sort), so the way back and previous/next keep them.
  const search = useSearchParams();
  const listQuery = search.get("list") ?? "";
  // The case queue the analyst came from (tab, filters, sort), so next, previous and back keep it.
  const queueContext = cleanQueueContext(search.get(CASES_PARAM) ?? "");

  // The evidence on the left, the decision panel on the right, kept on screen while the evidence scrolls
  // (1440×900 and 1280×720: the pictures and everything needed to decide without scrolling); on a phone the panel
  // follows the evidence, one tap away through the link at the top. The way back sits on the verification's header
  // line, so the panel starts at the top of the page and the pictures one line higher.
  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_26rem] lg:items-start">
      <div className="min-w-0 space-y-3">
        <a href="#decision-panel" className="block text-sm font-medium text-brand-800 underline underline-offset-2 lg:hidden">
          {t("toDecision")}
        </a>
        <VerificationEvidence
          publicId={publicId}
          viewer={viewer}
          serverError={serverError}
          listQuery={listQuery}
          queueContext={queueContext}
          back={
            <Link
              href={queueContext ? queueHref(queueContext) : backHref(listQuery)}
              className="font-medium text-brand-800 underline underline-offset-2"
            >
              ← {t("back")}
            </Link>
          }
        />
        <CaseHistory publicId={publicId} context={queueContext} />
        <VerificationEventHistory publicId={publicId} />
      </div>
      <aside
        id="decision-panel"
        aria-label={t("decisionPanel")}
        className="min-w-0 lg:sticky lg:top-2 lg:max-h-[calc(100vh-1rem)] lg:overflow-y-auto"
        data-testid="decision-panel"
      >
        <CaseTemplateFacts publicId={publicId}>
          <CaseWork
            publicId={publicId}
            viewer={viewer}
            context={queueContext}
            verificationPart={(caseDetail) => <CaseVerificationPart detail={caseDetail} viewer={viewer} />}
          />
        </CaseTemplateFacts>
      </aside>
    </div>
  );
}
