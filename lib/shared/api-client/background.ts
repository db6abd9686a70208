/*
 * Requests nobody asked for (polling, the image tokens' refresh) say so with this header: the server then
 * does not count them as the member's activity, so an unattended screen still reaches the idle timeout.
 */
export const BACKGROUND_HEADER = "x-kyc-background";

/** The headers a background request sends (apiRequest's `headers`). */
export const BACKGROUND_HEADERS: Readonly<Record<string, string>> = { [BACKGROUND_HEADER]: "1" };

/*
 * Reads ahead of the member (the queue's next case, its image tokens and bytes, read while the current case is
 * worked) say so with this header as well: the audit trail then records them as read ahead (`ahead: "read"`),
 * not as the member opening that case or seeing its images, which is recorded when it happens.
 */
export const AHEAD_HEADER = "x-kyc-ahead";

/** The headers a read ahead sends: a background request, marked as ahead. */
export const AHEAD_HEADERS: Readonly<Record<string, string>> = { ...BACKGROUND_HEADERS, [AHEAD_HEADER]: "1" };

/** Whether a request is a read ahead (AHEAD_HEADER). */
export function isReadAhead(headers: Headers): boolean {
  return headers.get(AHEAD_HEADER) === "1";
}
