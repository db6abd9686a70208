import { csvFile, route } from "@/lib/api/route";
import { config } from "@/lib/config";
import { requestLocale } from "@/lib/i18n/request-locale";
import { todayIn } from "@/lib/overview/period";
import { auditedOverviewExport, parseOverviewExport } from "@/lib/overview/server/export";
import { querySchemaFromParser } from "@/lib/shared/from-parser";

// Read once, with the day the request arrives on.
const query = querySchemaFromParser((params) => {
  const parsed = parseOverviewExport(params, todayIn(config().displayTimeZone));
  return parsed.ok ? { ok: true, value: { table: parsed.table, period: parsed.period } } : parsed;
});

// GET /api/overview/export?table=<name>&<the page's period> – one overview table as CSV, headed in the
// caller's language, from the same figures the page draws.
export const GET = route(
  { permission: "verifications.read", sideEffects: true, query },
  async ({ request, context, query: { table, period } }) => {
    const exported = await auditedOverviewExport(context, table, period, requestLocale(request));
    return csvFile(exported.stream, exported.filename, { "X-Total-Count": String(exported.rows) });
  },
);
