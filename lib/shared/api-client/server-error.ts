import { ApiRequestError } from "./api-request";

/*
 * A server page's failed first fetch, handed to its client component as a plain serialisable value (an
 * Error instance does not cross the server/client boundary), shown with its retry (components/ui/server-error-state.tsx).
 * No react-query here: a page drawn on the server loads none.
 */
export interface ServerError {
  status: number;
  code: string;
  message: string;
  retryable: boolean;
  requestId?: string;
  fields?: string[];
}

export function apiRequestErrorOf(error: ServerError): ApiRequestError {
  return new ApiRequestError(error.status, error.code, error.message, error.fields ?? [], error.retryable, undefined, {
    requestId: error.requestId,
  });
}
