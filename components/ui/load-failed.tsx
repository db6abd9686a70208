"use client";

import type { ReactNode } from "react";

import { Alert } from "./alert";
import { Button } from "./button";

/** A read that failed: what went wrong (`children`), and a button that asks again. */
export function LoadFailed({ onRetry, retryLabel, children }: { onRetry: () => unknown; retryLabel: string; children: ReactNode }) {
  return (
    <Alert
      tone="error"
      action={
        <Button variant="secondary" onClick={() => void onRetry()}>
          {retryLabel}
        </Button>
      }
    >
      {children}
    </Alert>
  );
}
