"use client";

import { VerificationList } from "@/components/verifications/verification-list";
import { SaveViewDialog } from "@/components/views/save-view-dialog";
import type { ServerError } from "@/lib/shared/api-client/server-error";

/** The list (components/verifications/verification-list.tsx), with saving the view beside its buttons. */
export function VerificationsPageClient({ maxPerPage, serverError }: { maxPerPage: number; serverError: ServerError | null }) {
  return <VerificationList maxPerPage={maxPerPage} serverError={serverError} actions={<SaveViewDialog scope="verifications" />} />;
}
