import type { apiRequest } from "./api-request";

/*
 * `apiRequest` with the API client loaded by the first request rather than with the page: code whose page sends
 * nothing on its first paint (the shell's search and signing out, the case queue's reads and actions) need not carry
 * the client in its first load (e2e/client-bundle.spec.ts, test/lint/client-graph.test.ts).
 */
export async function apiRequestWhenSent<T>(...args: Parameters<typeof apiRequest>): Promise<T> {
  const client = await import("./api-request");
  return client.apiRequest<T>(...args);
}
