"use client";

import { useTranslations } from "next-intl";
import { useState, type ReactNode } from "react";

import { PasskeyEnrolment } from "@/components/account/passkey-enrolment";
import { RecoveryCodesPanel } from "@/components/account/recovery-codes-panel";
import { TotpEnrolment } from "@/components/account/totp-enrolment";
import { Alert } from "@/components/ui/alert";
import { AppLink as Link } from "@/components/ui/app-link";
import { TitledSection } from "@/components/ui/titled-section";
import type { FactorConfirmedResponse } from "@/lib/account/types";

/*
 * The member's second factors: the list, adding an authenticator app or a passkey, the recovery codes once.
 * During enrolment (the policy requires a factor and the member has none) it says why nothing else opens,
 * and once a factor is confirmed and the codes acknowledged offers the way on. The list itself is drawn on the
 * server (`children`, ./factor-list.tsx); the codes shown once live here only, and survive the page being drawn
 * again after the new factor is confirmed.
 */
export function SecondFactors({
  enrolling,
  asked,
  required,
  hasConfirmed,
  children,
}: {
  /** The session is held in enrolment (the server's stage): only adding a factor works. */
  enrolling: boolean;
  /** Sent here to enrol (`?enrol=1`). */
  asked: boolean;
  /** The policy requires this member to hold a confirmed factor. */
  required: boolean;
  /** The member holds a confirmed factor, as the server last drew the list. */
  hasConfirmed: boolean;
  /** The factors' list, drawn on the server. */
  children: ReactNode;
}) {
  const t = useTranslations("account");
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [confirmedHere, setConfirmedHere] = useState(false);
  // Whether the member came here to enrol, as the page was first drawn: once a factor is confirmed the session leaves
  // enrolment and the page is drawn again without it, but the way on is still to be offered.
  const [cameToEnrol] = useState(enrolling || asked);

  const hasFactor = confirmedHere || hasConfirmed;
  const mustEnrol = enrolling || asked || required;
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

      {cameToEnrol && hasFactor && !recoveryCodes ? (
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
        {children}
        <div className="grid gap-4 lg:grid-cols-2">
          <TotpEnrolment onConfirmed={onConfirmed} />
          <PasskeyEnrolment onConfirmed={onConfirmed} />
        </div>
      </TitledSection>
    </>
  );
}
