import { VerificationNotFound } from "@/components/verifications/verification-not-found";
import { ClientMessages } from "@/lib/i18n/client-messages";
import { notFoundNote } from "@/lib/verifications/server/elsewhere";

// "Not found" under this connection: the service answers 404 alike for an id that never existed and for one of another
// integration or environment. When one of the member's other connections holds it, the page named it
// (lib/verifications/server/elsewhere.ts) and this says where, with the link there; otherwise nothing is hinted.
export default function NotFound() {
  return (
    <ClientMessages namespaces={["verifications.detail", "verifications.errors"]}>
      <VerificationNotFound elsewhere={notFoundNote().elsewhere} />
    </ClientMessages>
  );
}
