"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";

import { FactorList } from "@/components/account/factor-list";
import { PasskeyEnrolment } from "@/components/account/passkey-enrolment";
import { RecoveryCodesPanel } from "@/components/account/recovery-codes-panel";
import { TotpEnrolment } from "@/components/account/totp-enrolment";
import { Alert } from "@/components/ui/alert";
import { AppLink as Link } from "@/components/ui/app-link";
import { QueryView } from "@/components/ui/query-view";
import { TitledSection } from "@/components/ui/titled-section";
import { useFactorsQuery } from "@/lib/account/hooks";
import type { FactorConfirmedResponse } from "@/lib/account/types";

/*
 * The member's second factors: the list, adding an authenticator app or a passkey, the recovery codes once.
 * During enrolment (the policy requires a factor and the member has none) it says why nothing else opens,
 * and once a factor is confirmed and the codes acknowledged offers the way on.
 */
export function SecondFactors({
  enrolling,
  asked,
}: {
  /** The session is held in enrolment (the server's stage): only adding a factor works. */
  enrolling: boolean;
  /** Sent here to enrol (`?enrol=1`). */
  asked: boolean;
}) {
  const t = useTranslations("account");
  const tCommon = useTranslations("common");
  const factors = useFactorsQuery();
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [confirmedHere, setConfirmedHere] = useState(false);

  const hasFactor = confirmedHere || (factors.data?.factors.some((factor) => factor.confirmed) ?? false);
  const mustEnrol = enrolling || asked || (factors.data?.required ?? false);
  const onConfirmed = (result: FactorConfirmedResponse) => {
    setConfirmedHere(true);
    if (result.recoveryCodes?.length) setRecoveryCodes(result.recoveryCodes);
  };

  return (
    <>
      {mustEnrol && !hasFactor ? (
        <Alert tone="warning" title={t("enrol.title")}>
          {t("enrol.body")}
        </Alert>
      ) : null}

      {recoveryCodes ? <RecoveryCodesPanel codes={recoveryCodes} onAcknowledge={() => setRecoveryCodes(null)} /> : null}

      {(enrolling || asked) && hasFactor && !recoveryCodes ? (
        <Alert
          tone="success"
          title={t("enrol.doneTitle")}
          action={
            // Not prefetched: while enrolling, "/" redirected here; it is worth asking only now.
            <Link
              href="/"
              prefetch={false}
              className="inline-flex items-center justify-center rounded-md bg-brand-700 px-4 py-2 text-sm font-medium text-white hover:bg-brand-800"
            >
              {t("enrol.continue")}
            </Link>
          }
        >
          {t("enrol.done")}
        </Alert>
      ) : null}

      <TitledSection
        id="factors-heading"
        title={t("factors.heading")}
        lead={t("factors.intro")}
        leadClassName="max-w-2xl text-slate-600"
        className="space-y-4"
      >
        <QueryView query={factors} failed={t("factors.loadFailed")} retryLabel={tCommon("retry")} loading={tCommon("loading")}>
          {(data) => <FactorList data={data} />}
        </QueryView>
        <div className="grid gap-4 lg:grid-cols-2">
          <TotpEnrolment onConfirmed={onConfirmed} />
          <PasskeyEnrolment onConfirmed={onConfirmed} />
        </div>
      </TitledSection>
    </>
  );
}
