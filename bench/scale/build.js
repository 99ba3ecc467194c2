// Scaled cassettes for bench:scale: a real recording repeated through the public writer.
//   node bench/scale/build.js FROM OUT (--events N | --mib N) [--no-screenshots]   builds one (for measuring by hand)
import { copyFileSync, existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openCassetteWriter, readCassette } from "../../dist/public/replay.js";

export /**
 * A cassette of `events` events (or of at least `minBytes` bytes) from a real recording: its events
 * in order, then its harness events again and again (recorder events once), times and MCP stream
 * numbers shifted per copy, through the public writer; its frames and probe.json copied. With
 * `screenshots: false` the exchanges whose answer carries a frame are left out (a CLI event with
 * frames or files; an MCP request and the response with its id).
 */
async function buildCassette({ from, out, events, minBytes, screenshots = true }) {
  const read = await readCassette(from);
  const source = screenshots ? read : { ...read, events: withoutScreenshots(read.events) };
  const writer = openCassetteWriter({ dir: out, header: source.header });
  for (const name of readdirSync(path.join(from, "frames"))) {
    const bytes = readFileSync(path.join(from, "frames", name));
    writer.putFrame(bytes, name.endsWith(".jpg") ? "jpg" : "png");
  }
  if (existsSync(path.join(from, "probe.json"))) copyFileSync(path.join(from, "probe.json"), path.join(out, "probe.json"));
  const span = Math.max(...source.events.map((e) => e.t_ms)) + 1;
  const streams = Math.max(0, ...source.events.map((e) => (typeof e.stream === "number" ? e.stream + 1 : 0)));
  let written = 0;
  let bytes = 0;
  for (let copy = 0; ; copy++) {
    for (const e of source.events) {
      if (copy > 0 && e.origin === "recorder") continue;
      const { seq: _seq, ...rest } = e;
      const event = { ...rest, t_ms: e.t_ms + copy * span, ...(typeof e.stream === "number" ? { stream: e.stream + copy * streams } : {}) };
      writer.append(event);
      written++;
      if (minBytes !== undefined && written % 1000 === 0) bytes = statSync(writer.file).size;
      if (events !== undefined ? written >= events : bytes >= minBytes) {
        writer.close();
        return { events: written, bytes: statSync(path.join(out, "cassette.jsonl")).size };
      }
    }
  }
}

// The events of a recording without the exchanges that carry a frame.
function withoutScreenshots(events) {
  const key = (e) => {
    try {
      return `${e.stream}\0${JSON.stringify(JSON.parse(e.line).id)}`;
    } catch {
      return undefined;
    }
  };
  const carrying = new Set(events.filter((e) => e.kind === "mcp" && e.frames?.length).map(key));
  return events.filter((e) => !e.frames?.length && !Object.keys(e.files ?? {}).length && !(e.kind === "mcp" && carrying.has(key(e))));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const [from, out] = process.argv.slice(2);
  const flag = (name) => {
    const i = process.argv.indexOf(`--${name}`);
    return i < 0 ? undefined : Number(process.argv[i + 1]);
  };
  const mib = flag("mib");
  const screenshots = !process.argv.includes("--no-screenshots");
  const built = await buildCassette({ from, out, screenshots, ...(mib !== undefined ? { minBytes: mib * 2 ** 20 } : { events: flag("events") ?? 1000 }) });
  console.log(JSON.stringify(built));
}
