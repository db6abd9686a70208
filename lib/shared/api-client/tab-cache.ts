/*
 * The tab's query cache as seen by code that must not load react-query to speak to it: a page drawn on the server
 * whose request changed something another page's cache holds (a connection changed on the connections page, which
 * the create-verification dialog's flow picker lists). The tab's client (./query-client.ts) registers here when it
 * is made; until then there is nothing cached to mark stale.
 */

interface TabCache {
  invalidateQueries(filters: { queryKey: readonly unknown[] }): Promise<void>;
}

let cache: TabCache | null = null;

export function registerTabCache(next: TabCache | null): void {
  cache = next;
}

/** Marks the tab's cached answers under `queryKey` stale (those on screen are read again), if the tab has a cache. */
export function invalidateTabCache(queryKey: readonly unknown[]): void {
  void cache?.invalidateQueries({ queryKey });
}
