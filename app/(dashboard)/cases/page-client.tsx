"use client";

import { CaseQueue } from "@/components/cases/case-queue";
import type { Viewer } from "@/components/cases/viewer";
import { AlertQueue } from "@/components/monitoring/alert-queue";
import { SaveViewDialog } from "@/components/views/save-view-dialog";
import type { QueueParams } from "@/lib/cases/hooks";

export function CasesPageClient({ initial, viewer }: { initial: QueueParams; viewer: Viewer }) {
  return (
    <>
      <CaseQueue initial={initial} viewer={viewer} actions={<SaveViewDialog scope="cases" />} />
      <AlertQueue viewer={viewer} />
    </>
  );
}
