"use client";

import { useTranslations } from "next-intl";
import Link from "next/link";
import { usePathname } from "next/navigation";

import { LinkPending } from "@/components/ui/link-pending";
import type { Permission } from "@/lib/auth/permissions";

import { navItemsFor } from "./nav-items";

export function MainNav({ permissions }: { permissions: readonly Permission[] }) {
  const t = useTranslations("common.nav");
  const pathname = usePathname();
  return (
    <nav aria-label={t("label")}>
      <ul className="flex flex-wrap gap-1">
        {navItemsFor(permissions).map((item) => {
          const prefix = item.match ?? item.href;
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
