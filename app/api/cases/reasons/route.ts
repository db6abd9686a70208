import { json, route } from "@/lib/api/route";
import { reasonCatalogue, requestLocale } from "@/lib/cases/api";

// GET /api/cases/reasons – the reason catalogue an outcome cites, labelled in the caller's language.
export const GET = route({}, async ({ request }) => json(reasonCatalogue(requestLocale(request))));
