import "server-only";

import type { RequestContext } from "@/lib/audit-trail/server";
import type { StaffSession } from "@/lib/auth/server/require-role";
import { REASON_CODES, recommendationsOf } from "@/lib/cases/rules";
import type { ReasonCatalogue } from "@/lib/cases/types";
import type { Locale } from "@/lib/i18n/locales";
import en from "@/messages/en/cases.json";
import ptBR from "@/messages/pt-BR/cases.json";

import type { CaseContext } from "./actions";

// What the case route handlers share: who acts (with their permissions, which the assignment rules need)
// and the reason catalogue in the caller's language.

export function caseContext(user: StaffSession, context: RequestContext, request?: Request): CaseContext {
  return {
    actor: { id: user.id, email: user.email, permissions: user.permissions },
    ip: context.ip,
    pageView: context.pageView,
    // For the links of notifications sent out when NEXTAUTH_URL is unset.
    origin: request ? new URL(request.url).origin : undefined,
  };
}

const CATALOGUES: Record<Locale, { reasons: Record<string, string> }> = { "pt-BR": ptBR, en };

/** Each reason with its label and the recommendations it may be cited for. */
export function reasonCatalogue(locale: Locale): ReasonCatalogue {
  const labels = CATALOGUES[locale].reasons;
  return { reasons: REASON_CODES.map((code) => ({ code, label: labels[code] ?? code, recommendations: recommendationsOf(code) })) };
}
