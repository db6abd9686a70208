import { z } from "zod";

import { LOCALES } from "@/i18n/locales";

import { cpfSchema } from "../shared/cpf-schema";
import { REPORT_FORMATS } from "./titular";

// POST /api/privacy/reports. The CPF travels in this body only, never in a dashboard URL.

export const titularReportSchema = z.strictObject({
  cpf: cpfSchema,
  format: z.enum(REPORT_FORMATS, { error: 'Format must be "json", "csv" or "pdf"' }).optional(),
  locale: z.enum(LOCALES, { error: 'Locale must be "pt-BR" or "en"' }).optional(),
});

export type TitularReportInput = z.input<typeof titularReportSchema>;
