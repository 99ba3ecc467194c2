/**
 * What `--help` says about how a writer treats the files it writes (docs/cassettes.md, "Writing
 * safely"): what is atomic, what is locked, what a crash leaves.
 */
const LOCK =
  "Locked: a writer holds DIR/.cua-contract.lock while it writes; a second one waits up to 10 s (CUA_CONTRACT_LOCK_WAIT_MS), then exits 2 naming the holder (pid, command, since); the lock of a process that is gone is taken over.";

export const WRITE_SAFETY = {
  record: `${LOCK} Each event is one checked write of one line (a crash loses at most the event being written; a full disk is an error, never a short line). --force writes the new cassette beside the old one and renames it in place when the recording ends: until then the old one is untouched. Files 0600, folders 0700 (docs/cassettes.md).`,
  cassette: `${LOCK} prune, merge and sign write each file to a temp file beside it (every write checked), flush it and rename it in place: a crash leaves the old cassette (or, for --out, none), never a part. Frames and probe.json go first, cassette.jsonl last. A rewritten file keeps its mode (docs/cassettes.md).`,
  verify: `${LOCK} --update writes the new cassette beside DIR's and renames it in place only when the whole update succeeded: a refused or failed update leaves DIR as it was (docs/cassettes.md).`,
  replay: `--record-missing: ${LOCK} The lock is taken (and the folder checked writable) before the harness runs; the grown cassette is written beside the old one and renamed in place (docs/cassettes.md).`,
} as const;
