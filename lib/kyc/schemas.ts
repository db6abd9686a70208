import { z } from "zod";

import { cpfSchema } from "@/lib/shared/cpf-schema";

// Input of POST /api/kyc/sessions, shared by the KYC form and the route handler.

/** POST /api/kyc/sessions. The widget language follows the dashboard's language (server side). */
export const kycSessionSchema = z.strictObject({ cpf: cpfSchema });

export type KycSessionInput = z.input<typeof kycSessionSchema>;
