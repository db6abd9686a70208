// Shared (no client-only imports): a verification's detail link, carrying the list's query so the detail can
// go back to (and step through) the same list. Its own module: the detail page's neighbour links need it
// without loading the list's table.

/** The detail page of a verification, opened from the list whose query string is `listQuery`. */
export function detailHref(publicId: string, listQuery: string): string {
  const base = `/verifications/${encodeURIComponent(publicId)}`;
  return listQuery ? `${base}?${new URLSearchParams({ list: listQuery }).toString()}` : base;
}

/** The list the analyst came from (its query string `listQuery`): the detail page's way back. */
export function backHref(listQuery: string): string {
  return listQuery ? `/verifications?${listQuery}` : "/verifications";
}
