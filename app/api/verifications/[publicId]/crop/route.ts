import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { schemaFromParser } from "@/lib/shared/from-parser";
import { parseCropBox } from "@/lib/verifications/crop";
import { clearCrop, getCrop, setCrop } from "@/lib/verifications/server/crop";
import { publicIdSchema } from "@/lib/verifications/validation";

export const dynamic = "force-dynamic";

const params = z.object({ publicId: publicIdSchema });

// GET /api/verifications/:publicId/crop – the document's portrait crop, or null: `{crop: {box, setAt} | null}`.
export const GET = route({ permission: "media.read", params }, async ({ db, connection, params: { publicId } }) =>
  json({ crop: await getCrop(db, connection.id, publicId) }),
);

// PUT /api/verifications/:publicId/crop {x, y, w, h} – sets it (fractions of the picture; 400 naming the field
// outside it), on the trail (`verification.crop_set`). A write: its own permission, not the images' read.
export const PUT = route(
  { permission: "verifications.crop", params, body: schemaFromParser(parseCropBox) },
  async ({ db, connection, context, params: { publicId }, body }) =>
    json({ crop: await setCrop(db, connection.id, publicId, body, context) }),
);

// DELETE /api/verifications/:publicId/crop – back to the whole document (`verification.crop_clear`).
export const DELETE = route({ permission: "verifications.crop", params }, async ({ db, connection, context, params: { publicId } }) =>
  json({ cleared: await clearCrop(db, connection.id, publicId, context) }),
);
