import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { getLocale } from "next-intl/server";
import { headers } from "next/headers";
import { notFound } from "next/navigation";

import { AdoptPageView } from "@/components/ui/adopt-page-view";
import { QueryProvider } from "@/components/ui/query-provider";
import { VerificationNotFound } from "@/components/verifications/verification-not-found";
import { serverErrorOf } from "@/lib/api/errors";
import { requestContext, type RequestContext } from "@/lib/audit-trail/server";
import { hasPermission } from "@/lib/auth/permissions";
import type { StaffSession } from "@/lib/auth/types";
import { caseKeys } from "@/lib/cases/hooks";
import { reasonCatalogue } from "@/lib/cases/server/api";
import { pageConnection, pageConnections, requireConnectionPageUser, withPageUpstream } from "@/lib/connections/server/page";
import { ClientMessages } from "@/lib/i18n/client-messages";
import type { Locale } from "@/lib/i18n/locales";
import type { ServerError } from "@/lib/shared/api-client/server-error";
import { isUpstreamError } from "@/lib/upstream/errors";
import { isPublicId } from "@/lib/upstream/model/verification-query";
import { verificationKeys } from "@/lib/verifications/hooks";
import { viewVerification } from "@/lib/verifications/server/detail";
import { locateElsewhere } from "@/lib/verifications/server/elsewhere";
import { viewVerificationMedia } from "@/lib/verifications/server/media";
import { viewRelatedVerifications } from "@/lib/verifications/server/related";

import { VerificationPageClient } from "./page-client";

// /verifications/[publicId]: one verification, fetched here and hydrated; images load in the browser
// through short-lived tokens.

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

export default async function VerificationPage({ params }: { params: Promise<{ publicId: string }> }) {
  const user = await requireConnectionPageUser("verifications.read");
  // Next 16: params is a Promise.
  const { publicId } = await params;
  // `/`, `..`, `%2F` and anything else that could change the upstream path: not found, with no call.
  if (!isPublicId(publicId)) notFound();

  const queryClient = new QueryClient();
  // The reason catalogue comes with the page (static, no call): fetched after the case, it grew the outcome form
  // and pushed "Ask to verify again", the note and everything below it down under a reviewer's pointer.
  if (hasPermission(user, "cases.read")) queryClient.setQueryData(caseKeys.reasons(), reasonCatalogue((await getLocale()) as Locale));
  let missing = false;
  let serverError: ServerError | null = null;
  const requestHeaders = await headers();
  const context = requestContext(user, requestHeaders);
  try {
    await withPageUpstream("page /verifications/[publicId]", async () => {
      queryClient.setQueryData(verificationKeys.detail(publicId), await viewVerification(context, publicId, user));
      await Promise.all([
        hydrateRelated(queryClient, context, publicId, user),
        hydrateMedia(queryClient, context, publicId, user, requestHeaders),
      ]);
    });
  } catch (error) {
    // A 404 is the page's own state. Anything else is shown by the client as the route handler would
    // have answered it (IP not allowed, timeout with retry…), with no second fetch until the retry button.
    missing = isUpstreamError(error) && error.kind === "not_found";
    if (!missing) serverError = serverErrorOf(error);
  }
  // Outside the try: notFound() works by throwing. Where another connection holds it, the not-found page names it.
  if (missing) {
    const elsewhere = await locateElsewhere(publicId, await pageConnections(), (await pageConnection()).id);
    if (!elsewhere) notFound();
    return (
      <ClientMessages namespaces={["verifications.detail", "verifications.errors"]}>
        <VerificationNotFound elsewhere={elsewhere} />
      </ClientMessages>
    );
  }

  return (
    <QueryProvider>
      <HydrationBoundary state={dehydrate(queryClient)}>
        {/* The browser's calls for this page join the view its render was recorded under (the audit page groups them). */}
        <AdoptPageView id={context.pageView} path={`/verifications/${publicId}`} />
        <ClientMessages
          namespaces={[
            "verifications.detail",
            "verifications.errors",
            "verifications.faces",
            "verifications.masked",
            "verifications.media",
            "verifications.neighbours",
            "verifications.record",
            "verifications.redFlags",
            "verifications.risk",
            "verifications.status",
            "verifications.step",
            "verifications.steps",
            "verifications.table",
            "verifications.flows",
            "verifications.journeys",
            "verifications.notices",
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
            // The COAF report's dialog, for its holders only (no tipping off: nobody else's page carries its words).
            ...(hasPermission(user, "coaf.report") ? ["coaf.report", "coaf.grounds"] : []),
          ]}
        >
          <VerificationPageClient publicId={publicId} viewer={{ id: user.id, permissions: user.permissions }} serverError={serverError} />
        </ClientMessages>
      </HydrationBoundary>
    </QueryProvider>
  );
}
