/** What Next hands a page as `searchParams`: a name given once as a string, repeated as an array. */
export type PageSearchParams = Record<string, string | string[] | undefined>;

/** A page's search parameters as the route handlers read theirs (URLSearchParams), repeated names in order. */
export function toUrlSearchParams(raw: PageSearchParams): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(raw)) {
    for (const item of [value ?? []].flat()) params.append(key, item);
  }
  return params;
}
