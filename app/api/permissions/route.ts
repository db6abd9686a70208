import { json, route } from "@/lib/api/route";
import { requestLocale } from "@/lib/i18n/request-locale";
import { permissionCatalogue } from "@/lib/roles/server/catalogue";

// GET /api/permissions – the permission catalogue, grouped, with each label and explanation in the caller's
// language (roles.manage).
export const GET = route({ permission: "roles.manage" }, async ({ request }) => json(permissionCatalogue(requestLocale(request))));
