import type { CommandEntry } from "#src/cli/command.js";

// One line per command: its usage, its one-line description (shown by `cua-contract --help`) and
// where its module is. A command's module, and what it imports, loads only when that command runs.
export const commands: CommandEntry[] = [
  {
    command: "import <trajectory>",
    describe: "Turn a cua-driver trajectory folder (turn-NNNNN/, from start_recording) into a cassette",
    load: async () => (await import("./import.js")).importCommand,
  },
  {
    command: "report <input>",
    describe: "Write one self-contained HTML report of a cassette, a replay log or a check result",
    load: async () => (await import("./report.js")).reportCommand,
  },
  {
    command: "probe",
    describe: "Probe a cua-driver (read-only) and, with --contract, name every gap",
    load: async () => (await import("./probe.js")).probeCommand,
  },
  {
    command: "diff <a> <b>",
    describe: "Classify every difference between two drivers (snapshots, tools/list results or cassettes)",
    load: async () => (await import("./diff.js")).diffCommand,
  },
  {
    command: "contract <action>",
    describe: "Write a starting driver contract from a probe snapshot (then trim it to what your harness uses)",
    load: async () => (await import("./contract.js")).contractCommand,
  },
  {
    command: "gate",
    describe: "Before bumping the pinned driver: probe the candidate, check the contract, diff, and check every recorded call",
    load: async () => (await import("./gate.js")).gateCommand,
  },
  {
    command: "desktop <action> [state-dir]",
    describe: "Start or stop a throwaway X desktop (Xvfb, D-Bus, at-spi, openbox, gtk3-demo) for recording from the real runtime",
    load: async () => (await import("./desktop.js")).desktopCommand,
  },
  {
    command: "record [stray..]",
    describe: "Run a harness with a recording cua-driver shim first on PATH and write every driver call to a cassette",
    load: async () => (await import("./record.js")).recordCommand,
  },
  {
    command: "inspect <dir>",
    describe: "Load and validate a cassette: header, event counts, frames (missing or altered) and warnings",
    load: async () => (await import("./inspect.js")).inspectCommand,
  },
  {
    command: "check [scenarios..]",
    describe: "Run scenario contracts (cassette + faults + steps + expectations) against a harness",
    load: async () => (await import("./check.js")).checkCommand,
  },
  {
    command: "fuzz",
    describe: "Generate fault plans and step scripts over cassettes, check the harness, shrink and save failures",
    load: async () => (await import("./fuzz.js")).fuzzCommand,
  },
  {
    command: "merge-reports <dirs..>",
    describe: "Merge the blobs of a sharded fuzz campaign or check (--shard i/n --blob DIR) into one verdict and JUnit file",
    load: async () => (await import("./merge-reports.js")).mergeReportsCommand,
  },
  {
    command: "replay <dir>",
    describe: "Run a harness against a cassette: a cua-driver shim on PATH answers every call from the recording",
    load: async () => (await import("./replay.js")).replayCommand,
  },
  {
    command: "serve [dir]",
    describe: "Serve a cassette as a cua-driver stand-in: MCP on stdio, a cua-driver shim socket, or MCP over HTTP",
    load: async () => (await import("./serve.js")).serveCommand,
  },
  {
    command: "verify <dir>",
    describe: "Send a recording's flow to the live candidate, in order, and diff every answer against the recorded one",
    load: async () => (await import("./verify.js")).verifyCommand,
  },
  {
    command: "cassette <action> [dirs..]",
    describe: "Tidy cassettes: prune what no replay used, merge two, list the stale ones, sign their frames (docs/cassettes.md)",
    load: async () => (await import("./cassette.js")).cassetteCommand,
  },
];
