import type { ReactNode } from "react";

import { ClientMessages } from "@/lib/i18n/client-messages";

// Only for this segment's error boundary (a client component outside the page's own ClientMessages):
// giving it from the signed-in shell would put audit messages in every page's HTML.
export default function AuditLayout({ children }: { children: ReactNode }) {
  return <ClientMessages namespaces={["audit.errors"]}>{children}</ClientMessages>;
}
