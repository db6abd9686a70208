import { z } from "zod";

import { isValidCpf } from "@/lib/shared/cpf";

// Input of POST /api/search, shared by the search form and the route handler.

/** Exactly one of ref_id or cpf; the CPF travels in this body, never in a URL. */
export const searchSchema = z.union([
  z.object({ ref_id: z.string().trim().min(1, "must not be empty").max(200) }).strict(),
  z.object({ cpf: z.string().refine(isValidCpf, "must be a valid CPF") }).strict(),
]);
export type SearchInput = z.infer<typeof searchSchema>;
