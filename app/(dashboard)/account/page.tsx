import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";

import { ClientMessages } from "@/i18n/client-messages";
import { requirePageUser } from "@/lib/auth/server/require-role";

import { AccountPageClient } from "./page-client";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("account");
  return { title: t("title") };
}

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

// The member's own account and security: second factors and sessions. Also the enrolment page a session is
// held on while the policy requires a factor the member does not have yet (`?enrol=1`).
export default async function AccountPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await requirePageUser("signed_in", { during: ["enrolment"] });
  const asked = (await searchParams).enrol === "1";
  return (
    <ClientMessages namespaces={["account", "common.copy", "common.retry", "common.loading"]}>
      <AccountPageClient enrolling={user.awaiting === "enrolment"} asked={asked} />
    </ClientMessages>
  );
}
