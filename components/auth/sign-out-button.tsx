"use client";

import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button";

/**
 * A form posting to /api/auth/sign-out, which revokes the server-side session (a copy of the cookie stops
 * working) and, after single sign-on, sends the browser to the provider's logout. Without JavaScript the
 * form posts and follows the 303; with it, the script asks for JSON so a failure can be shown in place.
 * No next-auth client code ships for this, and the API client loads when the button is pressed: the button is on every
 * page, and a page whose own code sends nothing need not carry it.
 */
export function SignOutButton({ className = "" }: { className?: string }) {
  const t = useTranslations("auth.signOut");
  const [pending, setPending] = useState(false);
  const [failed, setFailed] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setFailed(false);
    try {
      const { apiRequest } = await import("@/lib/shared/api-client/api-request");
      const { location } = await apiRequest<{ location: string }>("/api/auth/sign-out", { method: "POST", stepUp: false });
      // A full page load, not a client-side push: it drops the in-memory query cache (personal data).
      window.location.assign(location);
    } catch {
      setFailed(true);
      setPending(false);
    }
  }

  return (
    <form method="post" action="/api/auth/sign-out" onSubmit={(event) => void onSubmit(event)} className="inline-flex items-center gap-2">
      <Button type="submit" withoutScript variant="ghost" pending={pending} className={className}>
        {t("button")}
      </Button>
      {failed ? (
        <span role="alert" className="text-xs text-red-700">
          {t("failed")}
        </span>
      ) : null}
    </form>
  );
}
