import { VerificationDetailSkeleton } from "@/components/verifications/verification-detail-skeleton";

export default function Loading() {
  return <VerificationDetailSkeleton />;
}
