/* Limits of the screening's settings, shared by the routes' schemas and the admin form. No server imports. */

/** The largest daily budget of upstream calls an admin may set. */
export const MAX_DAILY_BUDGET = 100_000;
/** The most people one run on demand may screen. */
export const MAX_RUN_LIMIT = 1_000;
