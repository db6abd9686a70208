"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useFormatter } from "next-intl";
import { createContext, useContext } from "react";

import { caseKeys } from "@/lib/cases/hooks";
import type { TemplateFacts } from "@/lib/cases/templates";
import type { CaseDetailResponse } from "@/lib/cases/types";

/*
 * What a decision template's placeholders are filled with: the case's own facts here, and what the page adds about
 * the verification (its flow, the step that failed) through TemplateFactsContext, since the case feature does not
 * read the verification feature.
 */

export const TemplateFactsContext = createContext<TemplateFacts>({});

/**
 * The facts of a case as the page holds them when a template is applied: the case read in whatever queue it was
 * opened from (any of its cached copies; never a new read), and the page's facts about the verification.
 */
export function useTemplateFacts(publicId: string): () => TemplateFacts {
  const client = useQueryClient();
  const format = useFormatter();
  const page = useContext(TemplateFactsContext);
  return () => {
    const detail = client
      .getQueriesData<CaseDetailResponse>({ queryKey: caseKeys.detail(publicId) })
      .map(([, data]) => data?.case)
      .find(Boolean);
    const created = detail?.verificationCreatedAt ? new Date(detail.verificationCreatedAt) : null;
    return {
      public_id: publicId,
      ref_id: detail?.refId ?? null,
      // Four-digit years, in the display time zone, as the case page shows dates.
      verification_date: created ? format.dateTime(created, { year: "numeric", month: "2-digit", day: "2-digit" }) : null,
      ...page,
    };
  };
}
