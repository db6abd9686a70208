import { ApiRequestError } from "./api-request";

/*
 * A server page's failed first fetch, handed to its client component as a plain serialisable value (an
 * Error instance does not cross the server/client boundary). A page handed to react-query puts it in the cache as
 * that query's error (./server-error-seed.ts); a page drawn on the server shows it with its retry. No react-query
 * here: a page drawn on the server loads none.
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
