// Moved to lib/audit-trail/. Kept for a moment so branches written against the old path still compile.
export * from "@/lib/audit-trail/record";
export { recordEvent as record } from "@/lib/audit-trail/record";
