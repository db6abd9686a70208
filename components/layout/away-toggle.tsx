"use client";

import { useState } from "react";

import { useAvailability, useSetAvailability } from "@/lib/cases/routing-hooks";

/**
 * "Away" in the user menu (issue 23): while away, auto-assignment passes the member by, and going away hands
 * their open cases back to their queues. A switch (role="switch"), so its state is announced.
 */
export function AwayToggle({ labels }: { labels: { away: string; awayNow: string; back: string } }) {
  // Labels come from the server component (the user menu), so the shell loads no message namespace for them.
  const current = useAvailability();
  const [chosen, setAway] = useState<boolean | null>(null);
  const away = chosen ?? current.data?.away ?? false;
  const [message, setMessage] = useState<string | null>(null);
  const availability = useSetAvailability();
  return (
    <span className="flex items-center gap-1">
      <button
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
        className={`rounded-md px-2 py-1 ${away ? "bg-amber-100 text-amber-900" : "text-slate-700 hover:bg-slate-100"}`}
      >
        {labels.away}
      </button>
      <span role="status" aria-live="polite" className="sr-only">
        {message}
      </span>
    </span>
  );
}
