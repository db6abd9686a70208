"use client";

import { KycSessionPanel } from "@/components/kyc/kyc-session-panel";
import { SmsCheckPanel } from "@/components/kyc/sms-check-panel";

export function KycPageClient({ smsCooldownSeconds }: { smsCooldownSeconds: number }) {
  return (
    <div className="grid gap-6 xl:grid-cols-2">
      <KycSessionPanel />
      <SmsCheckPanel cooldownSeconds={smsCooldownSeconds} />
    </div>
  );
}
