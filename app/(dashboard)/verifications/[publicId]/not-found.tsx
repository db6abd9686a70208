import { VerificationNotFound } from "@/components/verifications/verification-not-found";
import { ClientMessages } from "@/lib/i18n/client-messages";

// Plain "not found": the same words whether the id never existed or belongs to another integration or
// environment (the service answers 404 for both, and the dashboard never hints at the difference).
export default function NotFound() {
  return (
    <ClientMessages namespaces={["verifications.detail", "verifications.errors"]}>
      <VerificationNotFound />
    </ClientMessages>
  );
}
