import { useTranslations } from "next-intl";
import type { FormEvent } from "react";

import { Button } from "@/components/ui/button";

/**
 * The sign-out form, drawn once: a form posting to /api/auth/sign-out, which revokes the server-side session (a copy of
 * the cookie stops working) and, after single sign-on, sends the browser to the provider's logout. Without `onSubmit`
 * (the server's drawing, before the page's code has loaded) the form posts and follows the 303; with it
 * (./sign-out-button.tsx), the script asks for JSON so a failure can be shown in place.
 */
export function SignOutForm({
  className = "",
  pending = false,
  failed = false,
  onSubmit,
}: {
  className?: string;
  pending?: boolean;
  failed?: boolean;
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
}) {
  const t = useTranslations("auth.signOut");
  return (
    <form method="post" action="/api/auth/sign-out" onSubmit={onSubmit} className="inline-flex items-center gap-2">
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
