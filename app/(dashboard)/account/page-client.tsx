"use client";

import { useTranslations } from "next-intl";

import { SecondFactors } from "@/components/account/second-factors";
import { SessionsSection } from "@/components/account/sessions-section";

/*
 * The member's own account: second factors (list, add an authenticator app or a passkey, remove, the
 * recovery codes once), then the sessions. During enrolment the layout lets nothing else through, and this
 * page offers only the factors.
 */
export function AccountPageClient({
  enrolling,
  asked,
}: {
  /** The session is held in enrolment (the server's stage): only adding a factor works. */
  enrolling: boolean;
  /** Sent here to enrol (`?enrol=1`). */
  asked: boolean;
}) {
  const t = useTranslations("account");
  return (
    <section className="space-y-8">
      <div>
        <h1 className="text-2xl font-semibold">{t("title")}</h1>
        <p className="mt-1 max-w-2xl text-sm text-slate-600">{t("intro")}</p>
      </div>

      <SecondFactors enrolling={enrolling} asked={asked} />

      {/* While enrolling, the session may do nothing but add a factor (and sign out). */}
      {enrolling ? null : <SessionsSection />}
    </section>
  );
}
