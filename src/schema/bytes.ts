import { z } from "zod";

/**
 * Bytes as stored in a cassette: a plain string when the bytes are valid UTF-8 (stored exactly,
 * never re-serialized), else `{ encoding: "base64", data }`.
 */
export const Base64BytesSchema = z
  .object({
    encoding: z.literal("base64"),
    data: z
      .string()
      .regex(
        /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/,
        "data is not valid base64 (A–Z a–z 0–9 + /, padded with = to a multiple of 4)",
      ),
  })
  .strict();
export const StoredBytesSchema = z.union([z.string(), Base64BytesSchema]);
export type StoredBytes = z.infer<typeof StoredBytesSchema>;

/** `frames/<sha256>.<png|jpg>`: content-addressed, no other path segments allowed. */
export const FrameRefSchema = z.string().regex(/^frames\/[0-9a-f]{64}\.(png|jpg)$/, "a frame ref is frames/<64 hex sha256>.<png|jpg>");
export type FrameRef = z.infer<typeof FrameRefSchema>;

/**
 * An image cut out of a stored text field. The base64 of the frame's bytes is put back at `at`
 * (a UTF-16 offset into the stored text, after the splices before it) to restore the exact bytes.
 */
export const FrameSpliceSchema = z
  .object({
    field: z.string(),
    at: z.number().int().nonnegative(),
    ref: FrameRefSchema,
  })
  .strict();
export type FrameSplice = z.infer<typeof FrameSpliceSchema>;
