import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { headers } from "next/headers";
import { notFound } from "next/navigation";

import { audited, requestContext } from "@/lib/audit-trail";
import { requirePageUser } from "@/lib/auth/require-role";
import { verificationKeys } from "@/lib/queries/verifications";
import { isUpstreamError } from "@/lib/upstream/http";
import { isPublicId } from "@/lib/validations/verifications";
import { getVerificationDetail } from "@/lib/verifications/detail";

import { VerificationPageClient } from "./page-client";

// /verifications/[publicId]: one verification, fetched here and hydrated; images load in the browser
// through short-lived tokens.
export default async function VerificationPage({ params }: { params: Promise<{ publicId: string }> }) {
  const user = await requirePageUser("analyst");
  // Next 16: params is a Promise.
  const { publicId } = await params;
  // `/`, `..`, `%2F` and anything else that could change the upstream path: not found, with no call.
  if (!isPublicId(publicId)) notFound();

  const queryClient = new QueryClient();
  let missing = false;
  try {
    const context = requestContext(user, await headers());
    const data = await audited(context, { action: "verification.view", target: { type: "verification", id: publicId } }, () =>
      getVerificationDetail(publicId),
    );
    queryClient.setQueryData(verificationKeys.detail(publicId), data);
  } catch (error) {
    // A 404 is the page's own state. Anything else: the client asks the route handler and shows that
    // answer's state (IP not allowed, timeout with retry…).
    missing = isUpstreamError(error) && error.kind === "not_found";
  }
  // Outside the try: notFound() works by throwing.
  if (missing) notFound();

  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <VerificationPageClient publicId={publicId} viewer={{ id: user.id, role: user.role }} />
    </HydrationBoundary>
  );
}
