import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { getLocale, getTranslations } from "next-intl/server";
import { headers } from "next/headers";
import { notFound } from "next/navigation";

import { AdoptPageView } from "@/components/ui/adopt-page-view";
import { AppLink as Link } from "@/components/ui/app-link";
import { QueryProvider } from "@/components/ui/query-provider";
import { ViewNavigationProvider } from "@/components/ui/view-navigation";
import { DetailHistoriesIsland } from "@/components/verifications/detail-histories-island";
import { backHref } from "@/components/verifications/detail-href";
import { VerificationEvidence } from "@/components/verifications/verification-evidence";
import { VerificationNotFound } from "@/components/verifications/verification-not-found";
import { serverErrorOf } from "@/lib/api/errors";
import { requestContext, type RequestContext } from "@/lib/audit-trail/server";
import { hasPermission } from "@/lib/auth/permissions";
import type { StaffSession } from "@/lib/auth/types";
import { caseKeys } from "@/lib/cases/hooks";
import { CASES_PARAM, cleanQueueContext, queueHref } from "@/lib/cases/queue-context";
import { reasonCatalogue } from "@/lib/cases/server/api";
import { pageConnection, pageConnections, requireConnectionPageUser, withPageUpstream } from "@/lib/connections/server/page";
import { ClientMessages } from "@/lib/i18n/client-messages";
import type { Locale } from "@/lib/i18n/locales";
import type { ServerError } from "@/lib/shared/api-client/server-error";
import { isUpstreamError } from "@/lib/upstream/errors";
import type { Verification } from "@/lib/upstream/model/verification";
import { isPublicId } from "@/lib/upstream/model/verification-query";
import { verificationKeys } from "@/lib/verifications/hooks";
import { panelFactsOf, UNKNOWN_PANEL_FACTS } from "@/lib/verifications/panel-facts";
import { viewVerification } from "@/lib/verifications/server/detail";
import { locateElsewhere } from "@/lib/verifications/server/elsewhere";
import { viewVerificationMedia } from "@/lib/verifications/server/media";
import { viewRelatedVerifications } from "@/lib/verifications/server/related";

import { DecisionPanel } from "./page-client";

// /verifications/[publicId]: one verification, read and drawn here (the evidence column is server components: the
// verification reaches the browser as markup, never also as data); the browser's islands are the images (short-lived
// tokens), the record lookup, the neighbours, the same person's panel, the histories (after the load) and the decision
// panel, whose case is read in the browser.

/**
 * The same person's panel comes with the page (usually one index lookup; the service only for related
 * verifications without a case): fetched after hydration, its text was the page's largest paint, drawn a
 * second late (Lighthouse's LCP element on this page). A failure leaves it to the browser, which shows it
 * with its retry.
 */
async function hydrateRelated(queryClient: QueryClient, context: RequestContext, publicId: string, user: StaffSession) {
  try {
    queryClient.setQueryData(verificationKeys.related(publicId), await viewRelatedVerifications(context, publicId, user));
  } catch {
    // Left to the panel's own request.
  }
}
/**
 * The image tokens come with the page when the browser loads it as a document (`Sec-Fetch-Dest: document`): the
 * pictures are then in its HTML and load while the page's code does, where fetched after hydration they were the
 * page's largest paint, over a second late (Lighthouse). A move inside the app (the queue's "next") has them read
 * ahead already and asks for nothing here; nor does a browser that does not say what it loads. A failure leaves them
 * to the browser's own request, which shows it with its retry.
 */
async function hydrateMedia(
  queryClient: QueryClient,
  context: RequestContext,
  publicId: string,
  user: StaffSession,
  requestHeaders: Headers,
) {
  if (requestHeaders.get("sec-fetch-dest") !== "document" || !hasPermission(user, "media.read")) return;
  try {
    queryClient.setQueryData(verificationKeys.media(publicId), await viewVerificationMedia(context, publicId, user));
  } catch {
    // Left to the browser's request.
  }
}

/**
 * The verification, with what comes with it (the same person's panel, the image tokens), or why there is none: a 404
 * is the page's own state; anything else is shown as the route handler would have answered it (IP not allowed,
 * timeout…), its retry drawing the page again.
 */
async function readVerification(
  queryClient: QueryClient,
  context: RequestContext,
  publicId: string,
  user: StaffSession,
  requestHeaders: Headers,
): Promise<{ verification: Verification } | { missing: true } | { serverError: ServerError }> {
  try {
    return await withPageUpstream("page /verifications/[publicId]", async () => {
      const { verification } = await viewVerification(context, publicId, user);
      await Promise.all([
        hydrateRelated(queryClient, context, publicId, user),
        hydrateMedia(queryClient, context, publicId, user, requestHeaders),
      ]);
      return { verification };
    });
  } catch (error) {
    return isUpstreamError(error) && error.kind === "not_found" ? { missing: true } : { serverError: serverErrorOf(error) };
  }
}

const firstOf = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? "";

export default async function VerificationPage({
  params,
  searchParams,
}: {
  params: Promise<{ publicId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requireConnectionPageUser("verifications.read");
  // Next 16: params is a Promise.
  const { publicId } = await params;
  // `/`, `..`, `%2F` and anything else that could change the upstream path: not found, with no call.
  if (!isPublicId(publicId)) notFound();
  const search = await searchParams;
  // The list the analyst came from (filters and sort), so the way back and previous/next keep them; the case queue
  // the analyst came from (tab, filters, sort), so next, previous and back keep it.
  const listQuery = firstOf(search.list);
  const queueContext = cleanQueueContext(firstOf(search[CASES_PARAM]));

  const queryClient = new QueryClient();
  // The reason catalogue comes with the page (static, no call): fetched after the case, it grew the outcome form
  // and pushed "Ask to verify again", the note and everything below it down under a reviewer's pointer.
  if (hasPermission(user, "cases.read")) queryClient.setQueryData(caseKeys.reasons(), reasonCatalogue((await getLocale()) as Locale));
  const requestHeaders = await headers();
  const context = requestContext(user, requestHeaders);
  const read = await readVerification(queryClient, context, publicId, user, requestHeaders);
  // Here, not in readVerification's try: notFound() works by throwing. Where another connection holds it, the
  // not-found page names it.
  if ("missing" in read) {
    const elsewhere = await locateElsewhere(publicId, await pageConnections(), (await pageConnection()).id);
    if (!elsewhere) notFound();
    return (
      <ClientMessages namespaces={["verifications.detail", "verifications.errors"]}>
        <VerificationNotFound elsewhere={elsewhere} />
      </ClientMessages>
    );
  }

  const t = await getTranslations("verifications.detail");
  const stepName = await getTranslations("verifications.steps");
  const verification = "verification" in read ? read.verification : null;
  const facts = verification ? panelFactsOf(verification, (name) => stepName(name)) : UNKNOWN_PANEL_FACTS;
  const viewer = { id: user.id, permissions: user.permissions };
  return (
    <QueryProvider>
      <HydrationBoundary state={dehydrate(queryClient)}>
        {/* The browser's calls for this page join the view its render was recorded under (the audit page groups them). */}
        <AdoptPageView id={context.pageView} path={`/verifications/${publicId}`} />
        <ClientMessages namespaces={clientNamespaces(hasPermission(user, "coaf.report"))}>
          <ViewNavigationProvider path={`/verifications/${publicId}`}>
            {/* The evidence on the left, the decision panel on the right, kept on screen while the evidence scrolls
                (1440×900 and 1280×720: the pictures and everything needed to decide without scrolling); on a phone the
                panel follows the evidence, one tap away through the link at the top. The way back sits on the
                verification's header line, so the panel starts at the top of the page and the pictures one line higher. */}
            <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_26rem] lg:items-start">
              <div className="min-w-0 space-y-3">
                <a href="#decision-panel" className="block text-sm font-medium text-brand-800 underline underline-offset-2 lg:hidden">
                  {t("toDecision")}
                </a>
                <VerificationEvidence
                  verification={verification}
                  serverError={"serverError" in read ? read.serverError : null}
                  viewer={viewer}
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
                <DetailHistoriesIsland publicId={publicId} queueContext={queueContext} />
              </div>
              <aside
                id="decision-panel"
                aria-label={t("decisionPanel")}
                className="min-w-0 lg:sticky lg:top-2 lg:max-h-[calc(100vh-1rem)] lg:overflow-y-auto"
                data-testid="decision-panel"
              >
                <DecisionPanel publicId={publicId} viewer={viewer} queueContext={queueContext} facts={facts} />
              </aside>
            </div>
          </ViewNavigationProvider>
        </ClientMessages>
      </HydrationBoundary>
    </QueryProvider>
  );
}

/**
 * The messages the page's islands read (the server-drawn evidence reads its own on the server): the COAF report's
 * dialog's for its holders only (no tipping off: nobody else's page carries its words).
 */
function clientNamespaces(canReportToCoaf: boolean) {
  return [
    "verifications.detail",
    "verifications.errors",
    "verifications.faces",
    "verifications.media",
    "verifications.neighbours",
    "verifications.record",
    "verifications.status",
    "verifications.step",
    "verifications.steps",
    "verifications.table",
    "events.history",
    "cases.confirm",
    "cases.flags",
    "cases.note",
    "cases.outcome",
    "cases.panel",
    "cases.priority",
    "cases.recommendation",
    "cases.shortcuts",
    "cases.state",
    "cases.timeline",
    "cases.templates",
    "cases.samePerson",
    "cases.reverification",
    "cases.search.miss.sources",
    "lookups.errors",
    "lookups.limit",
    "lookups.apiErrors",
    "errors",
    "common.copy",
    "common.loading",
    ...(canReportToCoaf ? (["coaf.report", "coaf.grounds"] as const) : []),
  ] as const;
}
