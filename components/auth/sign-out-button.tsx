"use client";

import { useState, type FormEvent } from "react";

import { apiRequestWhenSent } from "@/lib/shared/api-client/api-request-when-sent";

import { SignOutForm } from "./sign-out-form";

/**
 * The sign-out form with its script (./sign-out-form.tsx): a failure is shown in place. No next-auth client code ships
 * for this, and the API client loads when the button is pressed. In the signed-in shell this code itself is fetched
 * after the page's load (components/layout/shell-island.tsx); until then the form posts without it.
 */
export function SignOutButton({ className = "" }: { className?: string }) {
  const [pending, setPending] = useState(false);
  const [failed, setFailed] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setFailed(false);
    try {
      const { location } = await apiRequestWhenSent<{ location: string }>("/api/auth/sign-out", { method: "POST", stepUp: false });
      // A full page load, not a client-side push: it drops the in-memory query cache (personal data).
      window.location.assign(location);
    } catch {
      setFailed(true);
      setPending(false);
    }
  }

  return <SignOutForm className={className} pending={pending} failed={failed} onSubmit={(event) => void onSubmit(event)} />;
}
