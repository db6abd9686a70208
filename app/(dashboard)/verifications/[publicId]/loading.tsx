import { VerificationDetailSkeleton } from "@/components/verifications/verification-detail-skeleton";
import { ClientMessages } from "@/i18n/client-messages";

export default function Loading() {
  return (
    <ClientMessages namespaces={["common.loading"]}>
      <VerificationDetailSkeleton />
    </ClientMessages>
  );
}
