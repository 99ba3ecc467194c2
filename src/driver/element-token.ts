/**
 * The driver's element addressing (0.21 source): a `get_window_state` read makes a snapshot with an
 * id `s<8 hex>`, and each element of it an `element_token` `<snapshot_id>:<element_index>`.
 */

/** An `element_token`: group 1 the snapshot id, group 2 the element index. */
export const ELEMENT_TOKEN = /^(s[0-9a-f]{8}):(\d+)$/;

/** A `snapshot_id`. */
export const SNAPSHOT_ID = /^s[0-9a-f]{8}$/;
