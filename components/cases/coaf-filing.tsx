"use client";

import { useTranslations } from "next-intl";
import { useId, useState, type FormEvent, type ReactNode } from "react";

import { Alert, SuccessNotice } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { DialogFormActions } from "@/components/ui/dialog-form-actions";
import { Field } from "@/components/ui/field";
import { focusFirstProblem } from "@/components/ui/focus-first-problem";
import { requiredContext } from "@/components/ui/required-context";
import { useRefreshingRequest } from "@/components/ui/use-refreshing-request";
import { COAF_PROTOCOL_MAX_CHARS, type SuspiciousActivityDto } from "@/lib/cases/coaf";
import { fileCoafReport } from "@/lib/cases/coaf-requests";
import { ApiRequestError } from "@/lib/shared/api-client/api-request";

/*
 * Recording a draft report's SISCOAF protocol on /compliance/coaf, around the reports the page draws on the server:
 * the dialog and the last success, held by one provider (CoafFiling); each draft row's button (RecordProtocolButton)
 * and the notice's place (CoafNotice) are islands asking it. Once recorded, the page is drawn again (the row filed).
 */

interface CoafFilingValue {
  open: (report: SuspiciousActivityDto) => void;
  notice: string | null;
}

const [CoafFilingProvider, useCoafFiling] = requiredContext<CoafFilingValue>("CoafFiling");

export function CoafFiling({ children }: { children: ReactNode }) {
  const t = useTranslations("coaf.filed");
  const [filing, setFiling] = useState<SuspiciousActivityDto | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <CoafFilingProvider value={{ open: setFiling, notice }}>
      {children}
      <Dialog
        open={filing !== null}
        onOpenChange={(open) => (open ? undefined : setFiling(null))}
        title={t("title")}
        description={t("description")}
      >
        {filing ? (
          <FiledForm
            key={filing.id}
            report={filing}
            onFiled={() => {
              setFiling(null);
              setNotice(t("recorded"));
            }}
          />
        ) : null}
      </Dialog>
    </CoafFilingProvider>
  );
}

/** The last success, where the page puts it: above the reports. */
export function CoafNotice() {
  const { notice } = useCoafFiling();
  return <SuccessNotice>{notice}</SuccessNotice>;
}

/** A draft row's button that opens the protocol dialog for its report. */
export function RecordProtocolButton({ report }: { report: SuspiciousActivityDto }) {
  const t = useTranslations("coaf.page");
  const { open } = useCoafFiling();
  return (
    <Button
      variant="secondary"
      className="px-2 py-1 text-xs whitespace-nowrap"
      aria-label={t("recordProtocolLabel", { case: report.casePublicId })}
      onClick={() => open(report)}
    >
      {t("recordProtocol")}
    </Button>
  );
}

/** Now, as a datetime-local input shows it (the member's time, to the minute). */
function localNow(): string {
  const now = new Date();
  return new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

function FiledForm({ report, onFiled }: { report: SuspiciousActivityDto; onFiled: () => void }) {
  const t = useTranslations("coaf.filed");
  // Drawn again once settled: a conflict means the report was filed meanwhile, which its row should show.
  const file = useRefreshingRequest(fileCoafReport);
  const id = useId();
  const [protocol, setProtocol] = useState("");
  const [filedAt, setFiledAt] = useState(localNow);
  const [problems, setProblems] = useState<{ protocol?: "protocol" | "server"; filedAt?: "filedAt" | "server" }>({});

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (file.isPending) return;
    const at = new Date(filedAt);
    const found = {
      protocol: protocol.trim() === "" ? ("protocol" as const) : undefined,
      filedAt: Number.isNaN(at.getTime()) || at.getTime() > Date.now() + 60_000 ? ("filedAt" as const) : undefined,
    };
    setProblems(found);
    if (focusFirstProblem({ [`${id}-protocol`]: found.protocol, [`${id}-filed-at`]: found.filedAt })) return;
    file.mutate(
      { id: report.id, protocol: protocol.trim(), filedAt: at.toISOString() },
      {
        onSuccess: onFiled,
        onError: (error) => {
          if (!(error instanceof ApiRequestError) || error.code !== "validation") return;
          const named = {
            protocol: error.fields.includes("protocol") ? ("server" as const) : undefined,
            filedAt: error.fields.includes("filedAt") ? ("server" as const) : undefined,
          };
          setProblems(named);
          focusFirstProblem({ [`${id}-protocol`]: named.protocol, [`${id}-filed-at`]: named.filedAt });
        },
      },
    );
  }

  const failed = file.error && !(file.error instanceof ApiRequestError && file.error.code === "validation");
  const failure =
    file.error instanceof ApiRequestError && (file.error.code === "conflict" || file.error.code === "not_found")
      ? file.error.code
      : "unknown";
  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      <Field
        id={`${id}-protocol`}
        label={t("protocol")}
        value={protocol}
        maxLength={COAF_PROTOCOL_MAX_CHARS}
        autoComplete="off"
        disabled={file.isPending}
        error={problems.protocol ? t(`problems.${problems.protocol}`) : undefined}
        onChange={(event) => {
          setProtocol(event.target.value);
          setProblems((current) => ({ ...current, protocol: undefined }));
        }}
      />
      <Field
        id={`${id}-filed-at`}
        type="datetime-local"
        label={t("filedAt")}
        hint={t("filedAtHint")}
        value={filedAt}
        disabled={file.isPending}
        error={problems.filedAt ? t(`problems.${problems.filedAt}`) : undefined}
        onChange={(event) => {
          setFiledAt(event.target.value);
          setProblems((current) => ({ ...current, filedAt: undefined }));
        }}
      />
      <div aria-live="assertive">{failed ? <Alert tone="error">{t(`errors.${failure}`)}</Alert> : null}</div>
      <DialogFormActions cancelLabel={t("cancel")} submitLabel={t("submit")} pending={file.isPending} />
    </form>
  );
}
