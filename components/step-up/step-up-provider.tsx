"use client";

import { useTranslations } from "next-intl";
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { ApiRequestError } from "@/lib/shared/api-client/api-request";
import { setStepUpHandler, type StepUpOutcome } from "@/lib/shared/api-client/step-up";
import {
  fetchStepUpMethods,
  fetchStepUpPasskeyOptions,
  postStepUp,
  type StepUpMethod,
  type StepUpProof,
} from "@/lib/shared/api-client/step-up-api";

/*
 * The step-up dialog, mounted once for the signed-in shell (app/providers.tsx). When a call through apiRequest
 * is refused with `step_up_required`, the registry (lib/shared/api-client/step-up.ts) asks this provider; the
 * dialog opens on top of whatever the member was doing (a form keeps everything typed, its request waits),
 * asks for the second factor, and on success the waiting request is sent again. Cancelling (the button,
 * Escape) fails that request with a refusal in the member's language.
 *
 * The member's methods are read before the dialog opens, so the field is there for the dialog's first focus.
 */

interface Asking {
  id: number;
  resolve: (outcome: StepUpOutcome) => void;
  /** null: the methods could not be read. */
  methods: StepUpMethod[] | null;
}

export function StepUpProvider({ children }: { children: ReactNode }) {
  const [asking, setAsking] = useState<Asking | null>(null);
  // The dialog (and its messages) from the first question on: a page that never asks, like the password
  // change outside the shell, needs none of its messages.
  const [used, setUsed] = useState(false);
  const asked = useRef(0);

  useEffect(
    () =>
      setStepUpHandler(async () => {
        const methods = await fetchStepUpMethods().catch(() => null);
        return new Promise<StepUpOutcome>((resolve) => {
          setUsed(true);
          setAsking({ id: (asked.current += 1), resolve, methods });
        });
      }),
    [],
  );

  function finish(outcome: StepUpOutcome) {
    asking?.resolve(outcome);
    setAsking(null);
  }

  return (
    <>
      {children}
      {used ? (
        <StepUpDialog
          asking={asking}
          finish={finish}
          onReload={async () => {
            const methods = await fetchStepUpMethods().catch(() => null);
            setAsking((current) => (current ? { ...current, methods } : current));
          }}
        />
      ) : null}
    </>
  );
}

function StepUpDialog({
  asking,
  finish,
  onReload,
}: {
  asking: Asking | null;
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
