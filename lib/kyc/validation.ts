import { z } from "zod";

import { cpfSchema } from "@/lib/shared/cpf-schema";
import { purposeSchema } from "@/lib/shared/purpose-schema";

// Input of POST /api/kyc/sessions, shared by the KYC form and the route handler.

/**
 * POST /api/kyc/sessions. The widget language follows the dashboard's language (server side). A purpose, as
 * for a CPF lookup: it goes on the trail with the session start.
 */
export const kycSessionSchema = z.strictObject({ cpf: cpfSchema, purpose: purposeSchema });

export type KycSessionInput = z.input<typeof kycSessionSchema>;
