// The cassette's format name and version, apart from the schema so that code which only checks
// them (a quick `inspect`) does not load zod.
/** The `format` a cassette's header names. */
export const CASSETTE_FORMAT = "cua-cassette";
/** The cassette format version this toolkit writes and reads. */
export const CASSETTE_VERSION = 1;
