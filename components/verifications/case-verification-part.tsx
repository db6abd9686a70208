"use client";

import { hasPermission } from "@/lib/auth/has-permission";
import type { Permission } from "@/lib/auth/permissions";
import type { CaseDetail } from "@/lib/cases/types";
import { useMediaAhead } from "@/lib/verifications/media-ahead";

import { Reverification } from "./reverification-dialog";

/**
 * The verification page's part of the case panel (CaseWork's `verificationPart`): the next case's image tokens
 * and pictures read ahead (into memory only, for a member who may see images), and re-verification.
 */
export function CaseVerificationPart({
  detail,
  viewer,
}: {
  detail: CaseDetail;
  viewer: { id: string; permissions: readonly Permission[] };
}) {
  useMediaAhead(detail.next, { enabled: hasPermission(viewer, "media.read") });
  return <Reverification detail={detail} viewer={viewer} />;
}
