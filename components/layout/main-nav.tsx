"use client";

import { useTranslations } from "next-intl";
import Link from "next/link";
import { usePathname } from "next/navigation";

import { LinkPending } from "@/components/ui/link-pending";

const ITEMS = [
  { href: "/", key: "overview" },
  { href: "/verifications", key: "verifications" },
  { href: "/cases", key: "cases" },
  { href: "/lookups/cpf", key: "lookups", match: "/lookups" },
  { href: "/kyc", key: "kyc" },
  { href: "/admin", key: "admin", adminOnly: true },
] as const;

export function MainNav({ isAdmin }: { isAdmin: boolean }) {
  const t = useTranslations("common.nav");
  const pathname = usePathname();
  return (
    <nav aria-label={t("label")}>
      <ul className="flex flex-wrap gap-1">
        {ITEMS.filter((item) => !("adminOnly" in item) || isAdmin).map((item) => {
          const prefix = "match" in item ? item.match : item.href;
          const current = pathname === prefix || pathname.startsWith(`${prefix}/`);
          return (
            <li key={item.href}>
              <Link
                href={item.href}
                aria-current={current ? "page" : undefined}
                className={`relative block rounded-md px-3 py-2 text-sm font-medium ${
                  current ? "bg-brand-50 text-brand-800" : "text-slate-700 hover:bg-slate-100"
                }`}
              >
                {t(item.key)}
                <LinkPending />
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
