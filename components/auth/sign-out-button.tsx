"use client";

import { signOut } from "next-auth/react";
import { useTranslations } from "next-intl";
import { useState } from "react";

import { Button } from "@/components/ui/button";

/**
 * Posts to next-auth's sign-out (with its CSRF token); the server revokes the session row there, so a
 * copy of the cookie stops working too. Then a full navigation to the sign-in page.
 */
export function SignOutButton({ className = "" }: { className?: string }) {
  const t = useTranslations("auth.signOut");
  const [pending, setPending] = useState(false);
  const [failed, setFailed] = useState(false);

  async function onClick() {
    setPending(true);
    setFailed(false);
    try {
      await signOut({ redirect: false });
      // A full page load, not a client-side push: it drops the in-memory query cache (personal data).
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination
      window.location.assign("/sign-in");
    } catch {
      setFailed(true);
      setPending(false);
    }
  }

  return (
    <span className="inline-flex items-center gap-2">
      <Button variant="ghost" pending={pending} onClick={() => void onClick()} className={className}>
        {t("button")}
      </Button>
      {failed ? (
        <span role="alert" className="text-xs text-red-700">
          {t("failed")}
        </span>
      ) : null}
    </span>
  );
}
