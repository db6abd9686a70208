import "server-only";

import { eq } from "drizzle-orm";

import type { RequestContext } from "@/lib/audit-trail/server/context";
import { recordSuccess } from "@/lib/audit-trail/server/record";
import type { Database } from "@/lib/db/client";
import type { CropBox } from "@/lib/verifications/crop";

import { documentCrops } from "./tables";

/*
 * The document's portrait crop of a verification (lib/verifications/crop.ts): read by whoever sees its images,
 * set or cleared by them too, each change on the audit trail in the same transaction.
 */

export interface StoredCrop {
  box: CropBox;
  setAt: string;
}

export async function getCrop(db: Database, publicId: string): Promise<StoredCrop | null> {
  const [row] = await db.select().from(documentCrops).where(eq(documentCrops.publicId, publicId));
  return row ? { box: { x: row.x, y: row.y, w: row.w, h: row.h }, setAt: row.setAt.toISOString() } : null;
}

export async function setCrop(
  db: Database,
  publicId: string,
  box: CropBox,
  context: RequestContext,
  now = new Date(),
): Promise<StoredCrop> {
  await db.transaction(async (tx) => {
    const values = { ...box, setBy: context.actor?.id ?? null, setAt: now };
    await tx
      .insert(documentCrops)
      .values({ publicId, ...values })
      .onConflictDoUpdate({ target: documentCrops.publicId, set: values });
    await recordSuccess(
      context,
      {
        action: "verification.crop_set",
        target: { type: "verification", id: publicId },
        at: now,
      },
      tx,
    );
  });
  return { box, setAt: now.toISOString() };
}

/** Clears the crop: the whole document shows again. False when there was none. */
export async function clearCrop(db: Database, publicId: string, context: RequestContext): Promise<boolean> {
  return db.transaction(async (tx) => {
    const gone = await tx.delete(documentCrops).where(eq(documentCrops.publicId, publicId)).returning({ id: documentCrops.publicId });
    if (gone.length === 0) return false;
    await recordSuccess(
      context,
      {
        action: "verification.crop_clear",
        target: { type: "verification", id: publicId },
      },
      tx,
    );
    return true;
  });
}
