"use client";

import { useState } from "react";

import { BareButton } from "@/components/ui/button";
import { QueryProvider } from "@/components/ui/query-provider";
import { useAvailability, useSetAvailability } from "@/lib/cases/routing-hooks";

import { awayClass } from "./away-look";

/**
 * "Away" in the user menu (issue 23): while away, auto-assignment passes the member by, and going away hands
 * their open cases back to their queues. A switch (role="switch"), so its state is announced.
 */
function AwayToggle({ labels }: { labels: { away: string; awayNow: string; back: string } }) {
  // Labels come from the server component (the user menu), so the shell loads no message namespace for them.
  const current = useAvailability();
  const [chosen, setAway] = useState<boolean | null>(null);
  const away = chosen ?? current.data?.away ?? false;
  const [message, setMessage] = useState<string | null>(null);
  const availability = useSetAvailability();
  return (
    <span className="flex items-center gap-1">
      <BareButton
        type="button"
        role="switch"
        aria-checked={away}
        disabled={availability.isPending || !current.data}
        onClick={() =>
          availability.mutate(!away, {
            onSuccess: (data) => {
              setAway(data.away);
              setMessage(data.away ? labels.awayNow : labels.back);
            },
            onError: (error) => setMessage(error.message),
          })
        }
        className={awayClass(away)}
      >
        {labels.away}
      </BareButton>
      <span role="status" aria-live="polite" className="sr-only">
        {message}
      </span>
    </span>
  );
}

/** The switch with react-query (the tab's client): loaded after the page (./away-switch.tsx). */
export default function LiveAwayToggle({ labels }: { labels: { away: string; awayNow: string; back: string } }) {
  return (
    <QueryProvider>
      <AwayToggle labels={labels} />
    </QueryProvider>
  );
}
