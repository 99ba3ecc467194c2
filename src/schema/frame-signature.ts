import { z } from "zod";
import { FrameRefSchema } from "./bytes.js";

/**
 * A frame's screen signature, stored beside the frame as `frames/<sha256>.sig.json` when the
 * cassette is recorded, imported or signed (`cua-contract cassette sign`). It is a cache: a report
 * compares two frames by their signatures without decoding them, and computes the signature itself
 * when the file is absent, unreadable, for another frame or made by another `method`.
 */
export const FrameSignatureSchema = z
  .object({
    format: z.literal("cua-frame-signature"),
    version: z.literal(1),
    /** The frame it was computed from. */
    frame: FrameRefSchema,
    /** How it was computed; a reader uses only the method it computes itself. */
    method: z.string().min(1),
    /** The frame's own size in pixels. */
    width: z.number().int().positive(),
    height: z.number().int().positive(),
    /** The signature grid: `columns` × `rows` grey levels (0–255), row by row, as base64. */
    columns: z.number().int().positive(),
    rows: z.number().int().positive(),
    grey: z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, "grey is base64"),
  })
  .strict();
export type FrameSignatureFile = z.infer<typeof FrameSignatureSchema>;
