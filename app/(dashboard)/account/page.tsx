import { getTranslations } from "next-intl/server";

import { FactorList } from "@/components/account/factor-list";
import { SecondFactors } from "@/components/account/second-factors";
import { SessionsSection } from "@/components/account/sessions-section";
import { factorsOverview } from "@/lib/account/server/factors-overview";
import { ownSessions } from "@/lib/account/server/sessions";
import { requireConnectionPageUser } from "@/lib/connections/server/page";
import { getDb } from "@/lib/db/client";
import { ClientMessages } from "@/lib/i18n/client-messages";
import { pageTitle } from "@/lib/i18n/page-title";

export const dynamic = "force-dynamic";

export const generateMetadata = pageTitle("account");

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

// The member's own account and security: second factors (list, add an authenticator app or a passkey, remove, the
// recovery codes once), then the sessions. Also the enrolment page a session is held on while the policy requires a
// factor the member does not have yet (`?enrol=1`): then the layout lets nothing else through, and this page offers
// only the factors. Both lists are drawn here, through the same functions as their GET routes; what needs the browser
// (the enrolment forms, the remove and end buttons) are islands whose requests have the page drawn again.
export default async function AccountPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireConnectionPageUser("signed_in", { during: ["enrolment"] });
  const asked = (await searchParams).enrol === "1";
  const enrolling = user.awaiting === "enrolment";
  const db = await getDb();
  const [factors, sessions, t] = await Promise.all([
    factorsOverview(db, user),
    enrolling ? null : ownSessions(db, user),
    getTranslations("account"),
  ]);
  return (
    <ClientMessages namespaces={["account", "common.copy"]}>
      <section className="space-y-8">
        <div>
          <h1 className="text-2xl font-semibold">{t("title")}</h1>
          <p className="mt-1 max-w-2xl text-sm text-slate-600">{t("intro")}</p>
        </div>
        <SecondFactors
          enrolling={enrolling}
          asked={asked}
          required={factors.required}
          hasConfirmed={factors.factors.some((factor) => factor.confirmed)}
        >
          <FactorList data={factors} />
        </SecondFactors>
        {/* While enrolling, the session may do nothing but add a factor (and sign out). */}
        {sessions ? <SessionsSection sessions={sessions} /> : null}
      </section>
    </ClientMessages>
  );
}
