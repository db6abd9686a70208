import { VerificationNotFound } from "@/components/verifications/verification-not-found";
import { ClientMessages } from "@/lib/i18n/client-messages";

// "Not found" under this connection, and under none of the member's others either (the page asked them:
// lib/verifications/server/elsewhere.ts, and shows where it lives when one holds it): the service answers 404 alike for
// an id that never existed and for one of another integration or environment, and nothing is hinted.
export default function NotFound() {
  return (
    <ClientMessages namespaces={["verifications.detail", "verifications.errors"]}>
      <VerificationNotFound />
    </ClientMessages>
  );
}
