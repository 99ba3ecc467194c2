// Hand-built driver answers for the replay engine's state-model tests (labelled synthetic where a
// cassette holds them): a two-element look of window 70 of pid 7 under a given snapshot id, and an
// accepted action.

export const WINDOW = { pid: 7, window_id: 70 };

/** A get_window_state result: two elements whose tokens belong to `snapshot`. */
export const look = (snapshot: string) =>
  JSON.stringify({
    content: [{ text: "tree", type: "text" }],
    structuredContent: {
      elements: [
        { element_index: 0, element_token: `${snapshot}:0`, label: "Search", role: "text" },
        { element_index: 1, element_token: `${snapshot}:1`, label: "Button Boxes", role: "table cell" },
      ],
      pid: 7,
      snapshot_id: snapshot,
      window_id: 70,
    },
  });

/** An action answered as delivered in the background, effect unverifiable. */
export const ACTION =
  '{"content":[{"text":"ok","type":"text"}],"structuredContent":{"delivery":{"mode":"background"},"effect":"unverifiable","route":"accessibility"}}';
