/*
 * Requests nobody asked for (polling, the image tokens' refresh) say so with this header: the server then
 * does not count them as the member's activity, so an unattended screen still reaches the idle timeout.
 */
export const BACKGROUND_HEADER = "x-kyc-background";

/** The headers a background request sends (apiRequest's `headers`). */
export const BACKGROUND_HEADERS: Readonly<Record<string, string>> = { [BACKGROUND_HEADER]: "1" };
