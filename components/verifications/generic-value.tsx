/** Any JSON value, readably: primitives as text, the rest as indented JSON. */
export function GenericValue({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="text-slate-600">—</span>;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return <>{String(value)}</>;
  return (
    <pre className="overflow-x-auto rounded bg-slate-50 p-2 font-mono text-xs whitespace-pre-wrap">{JSON.stringify(value, null, 2)}</pre>
  );
}
