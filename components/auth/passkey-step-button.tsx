"use client";

import type { startAuthentication } from "@simplewebauthn/browser";
import { useTranslations } from "next-intl";
import { useState } from "react";

import { Button } from "@/components/ui/button";
import { fetchStepUpPasskeyOptions, postStepUp } from "@/lib/auth/hooks";

/** The second step with the member's passkey: the browser signs this dashboard's challenge, the server checks it. */
export function PasskeyStepButton({ callbackPath }: { callbackPath: string }) {
  const t = useTranslations("auth.secondFactor");
  const [pending, setPending] = useState(false);
  const [failed, setFailed] = useState(false);

  async function signWithPasskey() {
    setPending(true);
    setFailed(false);
    try {
      // The ceremony's library is loaded when the passkey is chosen, alongside the options.
      const [library, optionsJSON] = await Promise.all([
        import("@simplewebauthn/browser"),
        fetchStepUpPasskeyOptions<Parameters<typeof startAuthentication>[0]["optionsJSON"]>(),
      ]);
      const passkey = await library.startAuthentication({ optionsJSON });
      await postStepUp({ passkey });
      // A full load: the session changed stage, the server decides what comes next.
      window.location.assign(callbackPath);
    } catch {
      setFailed(true);
      setPending(false);
    }
  }

  return (
    <div className="space-y-2">
      <Button type="button" variant="secondary" className="w-full" pending={pending} onClick={() => void signWithPasskey()}>
        {t("passkey")}
      </Button>
      {failed ? (
        <p role="alert" className="text-sm text-red-800">
          {t("passkeyFailed")}
        </p>
      ) : null}
    </div>
  );
}
