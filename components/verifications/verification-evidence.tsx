import type { ReactNode } from "react";

import type { Viewer } from "@/components/cases/viewer";
import { ServerErrorState } from "@/components/ui/server-error-state";
import { hasPermission } from "@/lib/auth/has-permission";
import { CASES_PARAM } from "@/lib/cases/queue-context";
import type { ServerError } from "@/lib/shared/api-client/server-error";
import type { Verification } from "@/lib/upstream/model/verification";

import { MediaNotPermitted } from "./media-not-permitted";
import { SamePersonPanel } from "./same-person-panel";
import { VerificationDetail } from "./verification-detail";
import { VerificationMedia } from "./verification-media";
import { VerificationNeighbours } from "./verification-neighbours";

/** The page's own list and queue context, for links to another verification that keep them. */
function contextParams(listQuery: string, queueContext: string): string {
  const search = new URLSearchParams();
  if (listQuery) search.set("list", listQuery);
  if (queueContext) search.set(CASES_PARAM, queueContext);
  return search.toString();
}

/**
 * The evidence column of a verification's page, drawn by the server from the verification it read: the verification,
 * with the browser's islands (its neighbours in the list, the same person's other verifications, the images for a
 * member with media.read, the record lookup), or the server's failure with its retry. `listQuery` and `queueContext`
 * are where the analyst came from, kept by the links to other verifications; `back` is the way back to them, on the
 * header's line (or above the failure).
 */
export function VerificationEvidence({
  verification,
  serverError,
  viewer,
  listQuery,
  queueContext,
  back,
}: {
  verification: Verification | null;
  serverError: ServerError | null;
  viewer: Viewer;
  listQuery: string;
  queueContext: string;
  back: ReactNode;
}) {
  if (!verification) {
    return (
      <div className="space-y-3">
        <p className="text-sm">{back}</p>
        {serverError ? <ServerErrorState error={serverError} /> : null}
      </div>
    );
  }
  const { publicId } = verification;
  return (
    <VerificationDetail
      verification={verification}
      canLookUp={hasPermission(viewer, "lookups.run")}
      navigation={
        <>
          {back}
          <VerificationNeighbours publicId={publicId} listQuery={listQuery} />
        </>
      }
      related={<SamePersonPanel publicId={publicId} context={contextParams(listQuery, queueContext)} />}
      media={
        // Without media.read no token is asked for: the page says why there are no images.
        hasPermission(viewer, "media.read") ? (
          <VerificationMedia
            publicId={publicId}
            similarity={verification.steps.find((step) => step.name === "facematch")?.similarity}
            canCrop={hasPermission(viewer, "verifications.crop")}
          />
        ) : (
          <MediaNotPermitted />
        )
      }
    />
  );
}
