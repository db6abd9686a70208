import { z } from "zod";

import { json, route } from "@/lib/api/route";
import { FILE_KEY_PATTERN, recordImagesShown } from "@/lib/verifications/server/media";
import { publicIdSchema } from "@/lib/verifications/validation";

const body = z
  .object({
    files: z
      .array(z.string().regex(FILE_KEY_PATTERN, "must be a file key such as selfie"))
      .min(1)
      .max(10)
      .refine((files) => new Set(files).size === files.length, "must not repeat a file"),
  })
  .strict();

// POST /api/verifications/:publicId/media/shown {files} – the page showed these pictures, read ahead into the
// browser's memory before the member opened the case: each is recorded as seen now (`verification.image`,
// `ahead: "shown"`); the read ahead itself was recorded as `ahead: "read"`. Asks the service nothing.
export const POST = route(
  { permission: "media.read", params: z.object({ publicId: publicIdSchema }), body },
  async ({ user, context, params: { publicId }, body: { files } }) => json(await recordImagesShown(context, publicId, files, user)),
);
