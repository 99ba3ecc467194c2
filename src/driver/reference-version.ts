/**
 * The cua-driver release the toolkit's model of the driver is read from (its tools, texts, refusal
 * envelopes and the binary's own surface), and so the runtime version it is built and tested
 * against: a recording that does not say which driver answered it is taken to be from this one.
 */
export const REFERENCE_DRIVER_VERSION = "0.21.0";

/** The first release that speaks the MCP 2026-07-28 era beside the legacy one (0.28.0, trycua/cua PR #3609); before it, `server/discover` is answered -32601. */
export const FIRST_MODERN_RELEASE = "0.28.0";
