import "server-only";

import { and, eq } from "drizzle-orm";

import type { RequestContext } from "@/lib/audit-trail/server/context";
import { recordSuccess } from "@/lib/audit-trail/server/record";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/shared/errors";
import type { CropBox } from "@/lib/verifications/crop";

import { documentCrops } from "./tables";

/*
 * The document's portrait crop of a verification (lib/verifications/crop.ts): read by whoever sees its images,
 * set or cleared by them too, each change on the audit trail in the same transaction. A crop belongs to the connection
 * of its verification (issue 33): under any other it does not exist, and is neither read nor overwritten there.
 */

export interface StoredCrop {
  box: CropBox;
  setAt: string;
}

const cropOf = (connectionId: string, publicId: string) =>
  and(eq(documentCrops.connectionId, connectionId), eq(documentCrops.publicId, publicId));

export async function getCrop(db: Database, connectionId: string, publicId: string): Promise<StoredCrop | null> {
  const [row] = await db.select().from(documentCrops).where(cropOf(connectionId, publicId));
  return row ? { box: { x: row.x, y: row.y, w: row.w, h: row.h }, setAt: row.setAt.toISOString() } : null;
}

export async function setCrop(
  db: Database,
  connectionId: string,
  publicId: string,
  box: CropBox,
  context: RequestContext,
  now = new Date(),
): Promise<StoredCrop> {
  await db.transaction(async (tx) => {
    const values = { ...box, setBy: context.actor?.id ?? null, setAt: now };
    const written = await tx
      .insert(documentCrops)
      .values({ publicId, connectionId, ...values })
      .onConflictDoUpdate({ target: documentCrops.publicId, set: values, setWhere: eq(documentCrops.connectionId, connectionId) })
      .returning({ publicId: documentCrops.publicId });
    // Drawn under another connection: that verification is not this connection's (nothing is written, nor recorded).
    if (written.length === 0) throw new AppError("not_found", "No verification with this id under this connection.");
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
export async function clearCrop(db: Database, connectionId: string, publicId: string, context: RequestContext): Promise<boolean> {
  return db.transaction(async (tx) => {
    const gone = await tx.delete(documentCrops).where(cropOf(connectionId, publicId)).returning({ id: documentCrops.publicId });
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
