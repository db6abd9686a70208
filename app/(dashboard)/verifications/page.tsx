import { getTranslations } from "next-intl/server";

import { ComingSoon } from "@/components/layout/coming-soon";

export default async function Page() {
  const t = await getTranslations("common.nav");
  return <ComingSoon title={t("verifications")} />;
}
