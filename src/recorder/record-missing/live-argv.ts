import { VALUE_FLAGS } from "#src/driver/cli-surface.js";

/**
 * The argv a harness's `cua-driver call …` goes live with: its positional JSON through `json`
 * (the ids translated), and `--screenshot-out-file` pointed at `outFile` (a private file, so an
 * answer served from the cassette is not overwritten by the live driver's picture). Read the way
 * the driver reads its argv (cassette/driver-argv.ts).
 */
export function liveArgv(options: { argv: readonly string[]; json: (text: string) => string; outFile?: string }): string[] {
  const { argv, outFile } = options;
  const out = [...argv];
  const positionals: number[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token.startsWith("-") && token.length > 1) {
      const eq = token.indexOf("=");
      if (token.startsWith("--") && eq > 2) {
        if (token.slice(0, eq) === "--screenshot-out-file" && outFile !== undefined) out[i] = `--screenshot-out-file=${outFile}`;
      } else if (VALUE_FLAGS.has(token)) {
        if (token === "--screenshot-out-file" && outFile !== undefined && i + 1 < argv.length) out[i + 1] = outFile;
        i++;
      }
    } else positionals.push(i);
  }
  const json = argv[positionals[0]!] === "call" ? positionals[2] : positionals[1];
  if (json !== undefined) out[json] = options.json(argv[json]!);
  return out;
}
