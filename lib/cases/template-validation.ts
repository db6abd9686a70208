import { z } from "zod";

import { COMMENT_MAX_CHARS, REASON_CODES, RECOMMENDATIONS } from "@/lib/cases/rules";
import {
  holdsCpf,
  reasonsNotForKind,
  TEMPLATE_NAME_MAX_CHARS,
  TEMPLATE_PLACEHOLDERS,
  TEMPLATE_SCOPES,
  unknownPlaceholders,
} from "@/lib/cases/templates";
import { safeText } from "@/lib/shared/safe-text-schema";

// Input of POST /api/cases/templates and PATCH /api/cases/templates/{id}, shared by the template dialogs and the
// route handlers: every problem names its field before anything is written.

const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const NO_CPF = "must not hold a CPF: templates are shared across cases and hold no personal data";

const name = safeText(
  z.string().trim().min(1, "must not be empty").max(TEMPLATE_NAME_MAX_CHARS, `must be at most ${TEMPLATE_NAME_MAX_CHARS} characters`),
).refine((value) => !holdsCpf(value), NO_CPF);

const comment = safeText(z.string().max(COMMENT_MAX_CHARS, `must be at most ${COMMENT_MAX_CHARS} characters`))
  .refine((value) => !CONTROL.test(value), "must not hold control characters")
  .refine((value) => !holdsCpf(value), NO_CPF)
  .superRefine((value, context) => {
    const unknown = unknownPlaceholders(value);
    if (unknown.length === 0) return;
    context.addIssue({
      code: "custom",
      message: `must use known placeholders only: {${unknown.join("}, {")}} is not one of {${TEMPLATE_PLACEHOLDERS.join("}, {")}}`,
    });
  });

const reasons = z.array(z.enum(REASON_CODES)).min(1, "must name at least one reason").max(REASON_CODES.length);

const REASONS_OF_KIND = "must be reasons of this kind (GET /api/cases/reasons lists each reason's recommendations)";

export const createTemplateSchema = z
  .object({ kind: z.enum(RECOMMENDATIONS), scope: z.enum(TEMPLATE_SCOPES), name, reasons, comment: comment.default("") })
  .strict()
  .superRefine((value, context) => {
    if (reasonsNotForKind(value.kind, value.reasons).length > 0)
      context.addIssue({ code: "custom", path: ["reasons"], message: REASONS_OF_KIND });
  });
export type CreateTemplateInput = z.infer<typeof createTemplateSchema>;

/**
 * A change of kind, name, reasons or comment (the scope stays): the reasons, as sent or as kept, are checked against
 * the kind, as sent or as kept, on the server. Given both here, here too.
 */
export const updateTemplateSchema = z
  .object({ kind: z.enum(RECOMMENDATIONS).optional(), name: name.optional(), reasons: reasons.optional(), comment: comment.optional() })
  .strict()
  .refine((value) => Object.keys(value).length > 0, { message: "must change kind, name, reasons or comment", path: ["name"] })
  .superRefine((value, context) => {
    if (value.kind && value.reasons && reasonsNotForKind(value.kind, value.reasons).length > 0)
      context.addIssue({ code: "custom", path: ["reasons"], message: REASONS_OF_KIND });
  });
export type UpdateTemplateInput = z.infer<typeof updateTemplateSchema>;

export { REASONS_OF_KIND };
