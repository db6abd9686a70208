import { useTranslations } from "next-intl";

import { IntegrationKeysTable } from "@/components/integrations/integration-keys-table";
import { RevealableKeys } from "@/components/integrations/revealable-keys";
import type { IntegrationListResponse } from "@/lib/integrations/types";

/**
 * The integration keys, drawn on the server: those whose secret may still be revealed (a client island: the value
 * is fetched on request and kept in its memory), then the list of every key with its state, each active one
 * retirable (marked here only: the note under the title says the key must be revoked at the provider).
 */
export function IntegrationKeys({ list }: { list: IntegrationListResponse }) {
  const t = useTranslations("integrations.list");
  return (
    <>
      <RevealableKeys keys={list.revealable} windowSeconds={list.revealWindowSeconds} />
      <section aria-labelledby="keys-title" className="space-y-3">
        <h2 id="keys-title" className="text-lg font-semibold text-slate-900">
          {t("title")}
        </h2>
        <p className="max-w-3xl text-sm text-slate-700">{t("statesNote")}</p>
        <IntegrationKeysTable keys={list.keys} />
      </section>
    </>
  );
}
