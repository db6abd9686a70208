import { z } from "zod";

// POST /api/notifications/read: some notifications by id, or all of the member's.
export const markReadSchema = z
  .object({
    ids: z.array(z.number().int().positive()).min(1).max(200).optional(),
    all: z.literal(true).optional(),
  })
  .strict()
  .refine((value) => (value.ids !== undefined) !== (value.all !== undefined), {
    message: "give either ids or all: true",
    path: ["ids"],
  });

export type MarkReadInput = z.infer<typeof markReadSchema>;
