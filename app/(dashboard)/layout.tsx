import { getLocale, getTranslations } from "next-intl/server";
import { headers } from "next/headers";
import type { ReactNode } from "react";

import { Providers } from "@/app/providers";
import { CaseSearchForm } from "@/components/cases/case-search-form";
import { ConnectionSwitcher } from "@/components/layout/connection-switcher";
import { HeaderBar } from "@/components/layout/header-bar";
import { LanguageSelect } from "@/components/layout/language-select";
import { LiveUpdates } from "@/components/layout/live-updates";
import { MainNav } from "@/components/layout/main-nav";
import { ShellIsland } from "@/components/layout/shell-island";
import { UserMenu } from "@/components/layout/user-menu";
import { NotificationBellIsland } from "@/components/notifications/bell-island";
import { AddressConnectionProvider, AppLink as Link } from "@/components/ui/app-link";
import { NavigationAnnouncer, NavigationStatusProvider } from "@/components/ui/link-pending";
import { NONCE_HEADER } from "@/lib/api/csp";
import { hasPermission, PATH_HEADER } from "@/lib/auth/server/require-role";
import { config } from "@/lib/config";
import { pageConnection, pageConnections, requireConnectionPageUser } from "@/lib/connections/server/page";
import { getDb } from "@/lib/db/client";
import { ClientMessages } from "@/lib/i18n/client-messages";
import type { Locale } from "@/lib/i18n/locales";
import { connectionOfPath } from "@/lib/shared/connection-path";
import { EARLY_KEYS_SCRIPT } from "@/lib/shared/early-keys";
import { deliveriesFailing } from "@/lib/webhooks/server/health";

// The signed-in shell. Each page and route handler still checks the session and its permission itself.
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const t = await getTranslations("common");
  const locale = (await getLocale()) as Locale;
  // Signed out (or session ended): to the sign-in page. Pages still check their own permission.
  // A session awaiting its second factor goes to that step; the password change and a required enrolment
  // render inside the shell (the pages themselves refuse everything else).
  const user = await requireConnectionPageUser("signed_in", { during: ["password_change", "enrolment"] });
  const requestHeaders = await headers();
  const nonce = requestHeaders.get(NONCE_HEADER) ?? undefined;
  // The connection the address the browser asked for names (the proxy keeps it), for links drawn on the server.
  const addressConnection = connectionOfPath(requestHeaders.get(PATH_HEADER) ?? "/");
  const sandbox = config().mode === "embedded";
  // The connection the address names (else the default), always shown; the switcher lists the live ones the member may use.
  const connection = await pageConnection();
  const connections = (await pageConnections()).map(({ id, name, environment }) => ({ id, name, environment }));
  // The connection's integration admins are told on every page when the service's deliveries fail (the administration
  // entry's marker; the page itself says why), without a banner that would push every page's content down.
  const failing = hasPermission(user, "integrations.manage") && (await deliveriesFailing(await getDb(), connection.id));
  return (
    // The shell's client components and the segments' error boundaries (client components outside each
    // page's own ClientMessages) read these. The audit boundary's come from its segment's layout.
    <ClientMessages
      namespaces={[
        "common.nav",
        "common.language",
        "common.loading",
        "common.error",
        "common.retry",
        "cases.search",
        "auth.signOut",
        "verifications.errors",
        "stepUp",
        "notifications",
        "views",
      ]}
    >
      {/* The dialogs' style nonce and the step-up dialog. No react-query: each page whose client reads queries gives
          its own provider (the tab's one client); the bell and the nav's saved views load theirs after the page. */}
      {/* Shortcut keys pressed before the page's code runs are written down, then applied (lib/shared/early-keys.ts). */}
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: EARLY_KEYS_SCRIPT }} />
      <Providers nonce={nonce}>
        <AddressConnectionProvider connection={addressConnection}>
          {/* The tab's one live stream: pages learn of changes without polling (lib/shared/api-client/live.ts). */}
          <LiveUpdates />
          <NavigationStatusProvider>
            <div className="flex min-h-screen flex-col">
              <a
                href="#content"
                className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
              >
                {t("skipToContent")}
              </a>
              <header className="border-b border-slate-200 bg-white print:hidden">
                {/* Inside the banner landmark: content outside every landmark is missed by landmark navigation (axe "region").
                  On a phone the banner becomes a badge beside the name, so the header stays one line. */}
                {sandbox ? (
                  <p className="bg-amber-100 px-4 py-1 text-center text-xs font-medium text-amber-900 max-sm:hidden">
                    {t("sandboxBanner")}
                  </p>
                ) : null}
                <HeaderBar
                  brand={
                    <span className="flex min-w-0 items-center gap-2">
                      <Link href="/" className="truncate text-base font-semibold text-slate-900">
                        {t("appName")}
                      </Link>
                      {/* On a phone the connection's badge stands for the banner: its environment, in the banner's colour
                        for sandbox (the header stays one line). */}
                      <ConnectionSwitcher
                        current={{ id: connection.id, name: connection.name, environment: connection.environment }}
                        connections={connections}
                      />
                    </span>
                  }
                  nav={<MainNav permissions={user.permissions} attention={failing ? ["/admin"] : []} />}
                  after={<NavigationAnnouncer />}
                  tools={
                    <>
                      <ShellIsland name="search" standIn={<CaseSearchForm by="ref_id" value="" />} />
                      <NotificationBellIsland currentConnection={connection.id} />
                      <ShellIsland name="language" standIn={<LanguageSelect locale={locale} />} />
                      <UserMenu user={user} />
                    </>
                  }
                />
              </header>
              <main id="content" className="mx-auto w-full max-w-7xl flex-1 px-4 py-6">
                {children}
              </main>
            </div>
          </NavigationStatusProvider>
        </AddressConnectionProvider>
      </Providers>
    </ClientMessages>
  );
}
