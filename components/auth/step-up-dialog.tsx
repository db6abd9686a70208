"use client";

import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { fetchStepUpPasskeyOptions, postStepUp } from "@/lib/auth/hooks";
import type { StepUpMethod, StepUpProof } from "@/lib/auth/types";
import { ApiRequestError } from "@/lib/shared/api-client/api-request";
import type { StepUpOutcome } from "@/lib/shared/api-client/step-up-registry";

/*
 * The step-up dialog itself (components/auth/step-up-provider.tsx asks it): the member's second factor,
 * then the waiting request goes again. Loaded on the first question, not with every signed-in page.
 */

/** One question: `methods` is null when the member's methods could not be read. */
export interface StepUpAsking {
  id: number;
  resolve: (outcome: StepUpOutcome) => void;
  methods: StepUpMethod[] | null;
}

export function StepUpDialog({
  asking,
  finish,
  onReload,
}: {
  asking: StepUpAsking | null;
  finish: (outcome: StepUpOutcome) => void;
  onReload: () => Promise<void>;
}) {
  const t = useTranslations("stepUp");
  return (
    <Dialog
      open={asking !== null}
      onOpenChange={(open) => (open ? undefined : finish({ verified: false, message: t("cancelled") }))}
      title={t("title")}
      description={asking?.methods && onlyPassword(asking.methods) ? t("descriptionPassword") : t("description")}
    >
      {asking ? (
        <StepUpForm
          // A new question starts from an empty form.
          key={asking.id}
          methods={asking.methods}
          onReload={onReload}
          onVerified={() => finish({ verified: true })}
          onCancel={() => finish({ verified: false, message: t("cancelled") })}
        />
      ) : null}
    </Dialog>
  );
}

const onlyPassword = (methods: readonly StepUpMethod[]) =>
  methods.includes("password") && !methods.some((method) => method === "totp" || method === "recovery" || method === "passkey");

function StepUpForm({
  methods,
  onReload,
  onVerified,
  onCancel,
}: {
  methods: StepUpMethod[] | null;
  onReload: () => Promise<void>;
  onVerified: () => void;
  onCancel: () => void;
}) {
  const t = useTranslations("stepUp");
  const [pending, setPending] = useState<"form" | "passkey" | "reload" | null>(null);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);

  if (methods === null) {
    return (
      <div className="space-y-4">
        <Alert tone="error">{t("loadFailed")}</Alert>
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={onCancel}>
            {t("cancel")}
          </Button>
          <Button
            pending={pending === "reload"}
            onClick={() => {
              setPending("reload");
              void onReload().finally(() => setPending(null));
            }}
          >
            {t("retry")}
          </Button>
        </div>
      </div>
    );
  }

  const password = onlyPassword(methods);
  const code = methods.includes("totp") || methods.includes("recovery");
  const passkey = methods.includes("passkey");
  const field = password ? "password" : code ? "code" : null;

  function refused(failure: unknown, proof: "code" | "password" | "passkey") {
    if (failure instanceof ApiRequestError && failure.code === "validation" && proof !== "passkey") {
      setFieldError(proof === "password" ? t("wrongPassword") : t("wrongCode"));
      setError(null);
    } else if (failure instanceof ApiRequestError && failure.status === 429) {
      setError(t("tooMany"));
    } else if (proof === "passkey") {
      setError(t("passkeyFailed"));
    } else {
      setError(t("failed", { message: failure instanceof Error ? failure.message : String(failure) }));
    }
  }

  async function prove(proof: StepUpProof, kind: "code" | "password" | "passkey") {
    try {
      await postStepUp(proof);
      onVerified();
    } catch (failure) {
      refused(failure, kind);
    }
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!field || pending) return;
    const value = String(new FormData(event.currentTarget).get(field) ?? "").trim();
    if (!value) {
      setFieldError(field === "password" ? t("emptyPassword") : t("emptyCode"));
      return;
    }
    setFieldError(undefined);
    setError(null);
    setPending("form");
    await prove(field === "password" ? { password: value } : { code: value }, field);
    setPending(null);
  }

  async function proveWithPasskey() {
    if (pending) return;
    setError(null);
    setPending("passkey");
    try {
      // Loaded when asked for: most members never step up with a passkey.
      const { startAuthentication } = await import("@simplewebauthn/browser");
      const optionsJSON = await fetchStepUpPasskeyOptions<Parameters<typeof startAuthentication>[0]["optionsJSON"]>();
      const response = await startAuthentication({ optionsJSON });
      await prove({ passkey: response }, "passkey");
    } catch (failure) {
      refused(failure, "passkey");
    } finally {
      setPending(null);
    }
  }

  return (
    <form onSubmit={(event) => void onSubmit(event)} className="space-y-4" noValidate>
      {field === "code" ? (
        <Field
          label={t("code")}
          name="code"
          autoComplete="one-time-code"
          autoCapitalize="off"
          spellCheck={false}
          hint={methods.includes("recovery") ? t("codeHint") : t("codeHintTotp")}
          error={fieldError}
          required
        />
      ) : field === "password" ? (
        <Field label={t("password")} name="password" type="password" autoComplete="current-password" error={fieldError} required />
      ) : null}
      {passkey ? (
        <div className="space-y-2">
          {field ? <p className="text-center text-xs text-slate-600">{t("or")}</p> : null}
          <Button variant="secondary" className="w-full" pending={pending === "passkey"} onClick={() => void proveWithPasskey()}>
            {t("passkey")}
          </Button>
        </div>
      ) : null}
      {!field && !passkey ? <Alert tone="error">{t("noMethod")}</Alert> : null}
      <div aria-live="assertive">{error ? <Alert tone="error">{error}</Alert> : null}</div>
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          {t("cancel")}
        </Button>
        {field ? (
          <Button type="submit" pending={pending === "form"}>
            {t("submit")}
          </Button>
        ) : null}
      </div>
    </form>
  );
}
