"use client";

import { useTranslations } from "next-intl";
import { useId, useState, type FormEvent } from "react";

import { Alert } from "@/components/ui/alert";
import { Dialog } from "@/components/ui/dialog";
import { DialogFormActions } from "@/components/ui/dialog-form-actions";
import type { Permission } from "@/lib/auth/permissions";
import { useConnections } from "@/lib/connections/hooks";
import type { ConnectionSummary } from "@/lib/connections/types";
import type { StaffConnectionsResponse, StaffListEntry } from "@/lib/staff/types";

import { useSetStaffConnectionsMutation, useStaffConnectionsQuery } from "./staff-security-queries";
import { useErrorReason } from "./use-error-reason";

/*
 * Which connections a member may use (lib/connections/server/access.ts): every one (the default), or those ticked,
 * each able to withhold the member's unmasked personal data and images there while their role grants them. Sent
 * through PUT /api/staff/{id}/connections, whose step-up the API client asks for.
 */

type Grants = NonNullable<StaffConnectionsResponse["connections"]>;
/** What a connection may withhold here: the two the security review names. Others stay with the role. */
const WITHHOLDABLE: readonly Permission[] = ["personal_data.unmasked", "media.read"];

export function StaffConnectionsDialog({ member, onOpenChange }: { member: StaffListEntry | null; onOpenChange: (open: boolean) => void }) {
  const t = useTranslations("staff.connections");
  const current = useStaffConnectionsQuery(member?.id ?? "", { enabled: member !== null });
  const connections = useConnections();
  const save = useSetStaffConnectionsMutation();
  const reason = useErrorReason();
  const live = (connections.data?.connections ?? []).filter((connection) => connection.retiredAt === null);
  return (
    <Dialog
      open={member !== null}
      onOpenChange={(open) => {
        if (!open) save.reset();
        onOpenChange(open);
      }}
      title={t("title", { name: member?.name ?? "" })}
      description={t("description")}
    >
      <div className="space-y-4">
        <div aria-live="polite">
          {save.error ? <Alert tone="error">{t("failed", { message: reason(save.error) })}</Alert> : null}
          {save.isSuccess ? <Alert tone="success">{t("saved")}</Alert> : null}
        </div>
        {member && current.data && connections.data ? (
          <GrantsForm
            key={member.id}
            initial={current.data.connections}
            live={live}
            pending={save.isPending}
            onSave={(grants) => save.mutate({ id: member.id, connections: grants })}
          />
        ) : current.isError || connections.isError ? (
          <Alert tone="error">{t("loadFailed")}</Alert>
        ) : (
          <p className="text-sm text-slate-600">{t("loading")}</p>
        )}
      </div>
    </Dialog>
  );
}

function GrantsForm({
  initial,
  live,
  pending,
  onSave,
}: {
  initial: Grants | null;
  live: ConnectionSummary[];
  pending: boolean;
  onSave: (grants: Grants | null) => void;
}) {
  const t = useTranslations("staff.connections");
  const id = useId();
  const [every, setEvery] = useState(initial === null);
  const [grants, setGrants] = useState<Grants>(initial ?? []);
  const grantOf = (connectionId: string) => grants.find((grant) => grant.connectionId === connectionId);
  const toggleUse = (connectionId: string, use: boolean) =>
    setGrants(use ? [...grants, { connectionId, withheld: [] }] : grants.filter((grant) => grant.connectionId !== connectionId));
  const toggleWithheld = (connectionId: string, permission: Permission, withhold: boolean) =>
    setGrants(
      grants.map((grant) =>
        grant.connectionId !== connectionId
          ? grant
          : { ...grant, withheld: withhold ? [...grant.withheld, permission] : grant.withheld.filter((name) => name !== permission) },
      ),
    );
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSave(every ? null : grants);
  };
  return (
    <form onSubmit={submit} className="space-y-4">
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">{t("scopeLegend")}</legend>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" name={`${id}-scope`} checked={every} onChange={() => setEvery(true)} />
          {t("every")}
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" name={`${id}-scope`} checked={!every} onChange={() => setEvery(false)} />
          {t("only")}
        </label>
      </fieldset>
      {every ? null : (
        <ul className="max-h-[45vh] space-y-2 overflow-y-auto" aria-label={t("listLabel")}>
          {live.map((connection) => (
            <GrantRow
              key={connection.id}
              connection={connection}
              grant={grantOf(connection.id)}
              onUse={toggleUse}
              onWithhold={toggleWithheld}
            />
          ))}
        </ul>
      )}
      {!every && grants.length === 0 ? <p className="text-sm text-rose-800">{t("noneChosen")}</p> : null}
      <DialogFormActions
        cancelLabel={t("cancel")}
        submitLabel={t("save")}
        pending={pending}
        submitDisabled={!every && grants.length === 0}
      />
    </form>
  );
}

function GrantRow({
  connection,
  grant,
  onUse,
  onWithhold,
}: {
  connection: ConnectionSummary;
  grant: Grants[number] | undefined;
  onUse: (connectionId: string, use: boolean) => void;
  onWithhold: (connectionId: string, permission: Permission, withhold: boolean) => void;
}) {
  const t = useTranslations("staff.connections");
  return (
    <li className="rounded-lg border border-slate-200 p-3 text-sm">
      <label className="flex items-center gap-2 font-medium text-slate-900">
        <input type="checkbox" checked={grant !== undefined} onChange={(event) => onUse(connection.id, event.target.checked)} />
        {t("use", { name: connection.name, environment: t(`environment.${connection.environment}`) })}
      </label>
      {grant ? (
        <div className="mt-2 space-y-1 pl-6">
          {WITHHOLDABLE.map((permission) => (
            <label key={permission} className="flex items-center gap-2 text-slate-700">
              <input
                type="checkbox"
                checked={grant.withheld.includes(permission)}
                onChange={(event) => onWithhold(connection.id, permission, event.target.checked)}
              />
              {t(`withhold.${permission === "media.read" ? "media" : "unmasked"}`)}
            </label>
          ))}
        </div>
      ) : null}
    </li>
  );
}
