import { Alert } from "@/components/ui/alert";
import type { ApiRequestError } from "@/lib/shared/api-client/api-request";

/** A refused action on the case panel, in the server's words. */
export function ErrorLine({ error }: { error: ApiRequestError | null }) {
  return error ? <Alert tone="error" title={error.message} /> : null;
}
