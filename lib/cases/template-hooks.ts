import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import type { Recommendation } from "@/lib/cases/rules";
import type { CreateTemplateInput, UpdateTemplateInput } from "@/lib/cases/template-validation";
import type { CaseTemplate, CaseTemplateList } from "@/lib/cases/templates";
import { apiRequest, type ApiRequestError } from "@/lib/shared/api-client/api-request";

/*
 * Decision templates in the browser (GET, POST /api/cases/templates, PATCH, DELETE /api/cases/templates/{id}): one
 * list of every kind, read once and kept (a change here invalidates it), each kind picked from it.
 */

const templateKeys = {
  all: ["cases", "templates"] as const,
};

export function useTemplates({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery<CaseTemplateList, ApiRequestError>({
    queryKey: templateKeys.all,
    queryFn: ({ signal }) => apiRequest("/api/cases/templates", { signal }),
    staleTime: 60_000,
    enabled,
  });
}

/** The templates of one kind, in the list's order (the team's first): their numbers are their places here. */
export function useTemplatesOf(kind: Recommendation, options: { enabled?: boolean } = {}) {
  const query = useTemplates(options);
  return { ...query, templates: (query.data?.templates ?? []).filter((template) => template.kind === kind) };
}

function useTemplateMutation<I>(request: (input: I) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation<unknown, ApiRequestError, I>({
    mutationFn: request,
    onSettled: () => client.invalidateQueries({ queryKey: templateKeys.all }),
  });
}

export const useCreateTemplate = () =>
  useTemplateMutation<CreateTemplateInput>((body) =>
    apiRequest<{ template: CaseTemplate }>("/api/cases/templates", { method: "POST", body }),
  );

/** Changes what `changes` holds of one template (PATCH): the fields left out stay as they are. */
export const useUpdateTemplate = () =>
  useTemplateMutation<{ id: string; changes: UpdateTemplateInput }>(({ id, changes }) =>
    apiRequest<{ template: CaseTemplate }>(`/api/cases/templates/${encodeURIComponent(id)}`, { method: "PATCH", body: changes }),
  );

export const useRetireTemplate = () =>
  useTemplateMutation<string>((id) => apiRequest(`/api/cases/templates/${encodeURIComponent(id)}`, { method: "DELETE" }));
