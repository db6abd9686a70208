import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";

/**
 * A page's `generateMetadata`: its title is the `title` message of `namespace`, in the reader's language.
 * `export const generateMetadata = pageTitle("kyc");`
 */
export function pageTitle(namespace: string): () => Promise<Metadata> {
  return async () => {
    const t = await getTranslations(namespace);
    return { title: t("title") };
  };
}
