import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";

import { InvalidFiltersAlert } from "./invalid-filters-alert";

/**
 * A period page (the overview, the team's numbers) whose URL asks for a period the server refused: its title, each
 * parameter named with what is wrong, a way back to the default period, and the period form (children) kept as typed.
 * Nothing is read before it. The namespace's `title` and `invalid.*` messages say it.
 */
export async function RefusedPeriod({
  namespace,
  clearHref,
  problems,
  children,
}: {
  namespace: "overview" | "analytics";
  clearHref: string;
  problems: ReadonlyArray<{ field: string; message: string }>;
  children: ReactNode;
}) {
  const t = await getTranslations(namespace);
  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold text-slate-900">{t("title")}</h1>
      <InvalidFiltersAlert
        title={t("invalid.title")}
        body={t("invalid.body")}
        clearHref={clearHref}
        clearLabel={t("invalid.clear")}
        problems={problems.map((problem) => ({ field: problem.field, text: problem.message }))}
      />
      {children}
    </div>
  );
}
