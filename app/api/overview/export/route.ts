import { requestLocale } from "@/i18n/request-locale";
import { csvFile, route } from "@/lib/api/route";
import { config } from "@/lib/config";
import { todayIn } from "@/lib/overview/period";
import { auditedOverviewExport, parseOverviewExport } from "@/lib/overview/server/export";
import { inputError } from "@/lib/verifications/server/input";

// GET /api/overview/export?table=<name>&<the page's period> – one overview table as CSV, headed in the
// caller's language, from the same figures the page draws.
export const GET = route({ permission: "verifications.read", sideEffects: true }, async ({ request, context }) => {
  const parsed = parseOverviewExport(new URL(request.url).searchParams, todayIn(config().displayTimeZone));
  if (!parsed.ok) throw inputError(parsed.problems);
  const exported = await auditedOverviewExport(context, parsed.table, parsed.period, requestLocale(request));
  return csvFile(exported.stream, exported.filename, { "X-Total-Count": String(exported.rows) });
});
