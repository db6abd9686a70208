import { useTranslations } from "next-intl";

import { ConnectionFormDialog } from "@/components/connections/connection-form-dialog";
import { ENVIRONMENT_TONE } from "@/components/connections/environment-tone";
import { KeyLife } from "@/components/connections/key-life";
import { TitleWithAction } from "@/components/ui/title-with-action";
import { useDateTime } from "@/components/ui/use-formatters";
import type { ConnectionSummary } from "@/lib/connections/types";

import { ConnectionActions } from "./connection-actions";

/*
 * The connections, one card each (a table would not fit a phone), drawn on the server: name, environment, integration,
 * the key and its life (./key-life.tsx), what its last test found, and the actions (an island): test, edit (name, new
 * key, expiry), retire.
 */

function Capability({ label, value }: { label: string; value: boolean | null }) {
  const t = useTranslations("connections.capability");
  const text = value === null ? t("unknown") : value ? t("yes") : t("no");
  return (
    <li className="flex justify-between gap-2">
      <span>{label}</span>
      <span className={value === false ? "font-medium text-red-800" : "text-slate-800"}>{text}</span>
    </li>
  );
}

function ConnectionCard({ connection }: { connection: ConnectionSummary }) {
  const t = useTranslations("connections");
  const dateTime = useDateTime();
  const retired = connection.retiredAt !== null;
  return (
    <li className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid={`connection-${connection.id}`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 className="text-base font-semibold text-slate-900">{connection.name}</h2>
          <p className="text-xs break-all text-slate-600">/c/{connection.id}</p>
        </div>
        <span className={`rounded px-2 py-0.5 text-xs font-semibold uppercase ${ENVIRONMENT_TONE[connection.environment]}`}>
          {t(`environment.${connection.environment}`)}
        </span>
      </div>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
        <div className="flex justify-between gap-2">
          <dt className="text-slate-600">{t("fields.integration")}</dt>
          <dd className="text-slate-900">{connection.integration ?? t("notStated")}</dd>
        </div>
        <div className="flex justify-between gap-2">
          <dt className="text-slate-600">{t("fields.partners")}</dt>
          <dd className="text-slate-900">{connection.partners ? t("capability.yes") : t("capability.no")}</dd>
        </div>
        <div className="flex justify-between gap-2">
          <dt className="text-slate-600">{t("fields.flows")}</dt>
          <dd className="text-right break-all text-slate-900">
            {connection.flows.length ? connection.flows.map((flow) => flow.label).join(", ") : t("anyFlow")}
          </dd>
        </div>
        <div className="flex justify-between gap-2">
          <dt className="text-slate-600">{t("testedAt")}</dt>
          <dd className="text-slate-900">{connection.testedAt ? dateTime(connection.testedAt) : t("neverTested")}</dd>
        </div>
      </dl>
      <KeyLife connection={connection} />
      <div>
        <h3 className="text-sm font-medium text-slate-800">{t("canDo")}</h3>
        <ul className="mt-1 space-y-0.5 text-sm text-slate-700 sm:max-w-xs">
          <Capability label={t("capability.read")} value={connection.capabilities.read} />
          <Capability label={t("capability.media")} value={connection.capabilities.media} />
          <Capability label={t("capability.unmasked")} value={connection.capabilities.unmasked} />
        </ul>
        {connection.problem ? <p className="mt-2 text-sm text-red-800">{t("problem", { code: connection.problem })}</p> : null}
      </div>
      {retired ? (
        <p className="text-sm font-medium text-slate-700">{t("retired", { at: dateTime(connection.retiredAt) ?? "" })}</p>
      ) : (
        <ConnectionActions connection={connection} />
      )}
    </li>
  );
}

/** The connections as the page draws them, on the server; each live one's actions are an island (./connection-actions.tsx). */
export function ConnectionList({ connections }: { connections: ConnectionSummary[] }) {
  const t = useTranslations("connections");
  return (
    <div className="space-y-6">
      <TitleWithAction title={t("title")} intro={t("intro")} action={<ConnectionFormDialog />} />
      <ul className="grid gap-4 lg:grid-cols-2">
        {connections.map((connection) => (
          <ConnectionCard key={connection.id} connection={connection} />
        ))}
      </ul>
    </div>
  );
}
