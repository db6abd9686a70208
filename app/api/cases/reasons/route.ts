import { json, route } from "@/lib/api/route";
import { reasonCatalogue } from "@/lib/cases/server/api";
import { requestLocale } from "@/lib/i18n/request-locale";

// GET /api/cases/reasons – the reason catalogue an outcome cites, labelled in the caller's language.
export const GET = route({ permission: "cases.read" }, async ({ request }) => json(reasonCatalogue(requestLocale(request))));
