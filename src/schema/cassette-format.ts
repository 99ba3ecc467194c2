// The cassette's format name and version, apart from the schema so that code which only checks
// them (a quick `inspect`) does not load zod.
export const CASSETTE_FORMAT = "cua-cassette";
export const CASSETTE_VERSION = 1;
