import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { GuardIdSchema } from "#src/schema/harness-step.js";
import { isStaleCode } from "./outcome.js";
import { FUZZ_REFUSALS, REFUSAL_CODES, refusalCodesWith, refusalEnvelope, refusalMessage, refusalStructured, readRefusalText } from "./refusals.js";

// docs/decisions/0220: what the toolkit knows of cua-driver's refusal codes is one table
// (src/driver/refusals.ts). These checks read the source, so a code named or listed again elsewhere
// fails here, naming the file.

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Source files outside driver/ (the model) and schema/ (persisted names, which precede the model in the folder order). */
function sourceFiles(): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      const rel = path.relative(src, full).split(path.sep).join("/");
      if (entry.isDirectory()) {
        if (rel !== "driver" && rel !== "schema") walk(full);
      } else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) out.push({ file: `src/${rel}`, text: readFileSync(full, "utf8") });
    }
  };
  walk(src);
  return out;
}

/** Quoted identifier-like literals (`"stale_element_token"`, `'input_busy'`) with their line numbers. */
function literals(text: string): { value: string; line: number }[] {
  const out: { value: string; line: number }[] = [];
  text.split("\n").forEach((line, i) => {
    for (const m of line.matchAll(/(["'])([a-z][a-z0-9_]*)\1/g)) out.push({ value: m[2]!, line: i + 1 });
  });
  return out;
}

/** Names that look like stale codes but are the toolkit's own, never the driver's. */
const NOT_DRIVER_CODES: ReadonlySet<string> = new Set([
  // guard ids (the schema names them); `stale_element_token` is also the driver's code, so it is not exempt
  ...GuardIdSchema.options.filter((id) => !(REFUSAL_CODES as readonly string[]).includes(id)),
  // the layout lease's refusal code (docs/guards.md)
  "stale_gui_frame",
  // the gate's verdict field for recordings outside the versions it checks
  "stale_recordings",
]);

describe("the refusal table is the one place refusal codes are named", () => {
  const files = sourceFiles();
  const codes: ReadonlySet<string> = new Set(REFUSAL_CODES);

  it("finds the source it checks", () => {
    expect(files.some((f) => f.file === "src/faults/refusal.ts")).toBe(true);
    expect(files.some((f) => f.file.startsWith("src/driver/") || f.file.startsWith("src/schema/"))).toBe(false);
  });

  it("no module outside driver/ spells out a code of the table (it names it as REFUSAL.<code>)", () => {
    const found = files.flatMap((f) => literals(f.text).flatMap((l) => (codes.has(l.value) ? [`${f.file}:${l.line} "${l.value}"`] : [])));
    expect(found, "name the code through REFUSAL (src/driver/refusals.ts), or derive the list from the table's flags").toEqual([]);
  });

  it("every stale-looking code anywhere in src is a row of the table or a name of the toolkit's own", () => {
    const found = files.flatMap((f) =>
      literals(f.text).flatMap((l) =>
        /^stale_|_stale$|_stale_/.test(l.value) && !codes.has(l.value) && !NOT_DRIVER_CODES.has(l.value) ? [`${f.file}:${l.line} "${l.value}"`] : [],
      ),
    );
    expect(found, "add the driver's code as a row of src/driver/refusals.ts with its flags").toEqual([]);
  });
});

describe("the daemon's texts are written and read only in driver/messages.ts", () => {
  // pieces of the texts the driver prints outside a tool result (src/driver/messages.ts)
  const PIECES = ["Cua Driver daemon", "waiting for daemon response", "daemon closed connection", "reviewed risk classification", "has ended; tool call"];

  it("no module outside driver/ writes or matches one of them itself", () => {
    const found = sourceFiles().flatMap((f) =>
      f.text.split("\n").flatMap((line, i) => PIECES.filter((piece) => line.includes(piece)).map((piece) => `${f.file}:${i + 1} ${piece}`)),
    );
    expect(found, "write the text, or its reader, in src/driver/messages.ts and use it from there").toEqual([]);
  });
});

describe("the refusal table", () => {
  it("keeps the lists the other parts read off it as they were", () => {
    expect(refusalCodesWith("stale")).toEqual(["stale_element_token", "invalid_snapshot_id", "generation_mismatch", "px_frame_mismatch", "browser_ref_stale"]);
    expect(refusalCodesWith("token-retiring")).toEqual(["stale_element_token", "invalid_snapshot_id", "generation_mismatch"]);
    expect(refusalCodesWith("not-now")).toEqual(["input_busy"]);
    expect(refusalCodesWith("partial-effect")).toEqual(["type_text_incomplete"]);
    expect(refusalCodesWith("lists-candidates")).toEqual(["window_target_not_found", "ambiguous_window_target"]);
    // the fuzzer's draw order: a change shifts what every seed draws
    expect(FUZZ_REFUSALS.map((r) => r.code)).toEqual([
      "stale_element_token",
      "session_ended",
      "background_unavailable",
      "input_busy",
      "px_frame_mismatch",
      "ambiguous_window_target",
    ]);
  });

  it("knows the element-identity codes the source after 0.28.2 names, as element-style refusals that are not stale", () => {
    for (const code of ["element_identity_required", "element_resolution_failed", "invalid_element_token"]) {
      expect(REFUSAL_CODES, code).toContain(code);
      expect(refusalEnvelope(code), code).toBe("element");
      expect(isStaleCode(code), code).toBe(false);
    }
    expect(refusalMessage("element_identity_required", "double_click", { element_index: 2 })).toBe(
      "double_click: pass an identity-bearing element_token from get_window_state; an index alone cannot identify an observed control",
    );
  });

  it("flags consistent with one another: token-retiring codes are stale, stale codes count as stale, not-now codes are never stale", () => {
    for (const code of refusalCodesWith("token-retiring")) expect(refusalCodesWith("stale")).toContain(code);
    for (const code of refusalCodesWith("stale")) expect(isStaleCode(code)).toBe(true);
    for (const code of refusalCodesWith("not-now")) expect(isStaleCode(code)).toBe(false);
    for (const code of refusalCodesWith("lists-candidates")) expect(refusalEnvelope(code)).toBe("target");
  });

  it("builds each envelope, and an unknown code gets the flat one with a generic text", () => {
    const args = { pid: 7 };
    const message = "m";
    expect(refusalStructured({ code: "input_busy", message, args })).toEqual({ refusal: { code: "input_busy", message }, status: "refused" });
    expect(refusalStructured({ code: "window_target_not_found", message, args, candidates: [{ window_id: 1 }] })).toEqual({
      candidates: [{ window_id: 1 }],
      code: "window_target_not_found",
      effect: "refused",
      pid: 7,
    });
    expect(refusalStructured({ code: "window_target_resolution_failed", message, args, candidates: [{ window_id: 1 }] })).toMatchObject({ candidates: [] });
    expect(refusalStructured({ code: "made_up", message, args })).toEqual({ code: "made_up" });
    expect(refusalMessage("made_up", "click", args)).toBe("click refused: made_up");
    expect(refusalMessage("ambiguous_window_target", "click", { target: { pid: 9 } })).toBe(
      "pid 9 has more than one eligible top-level window; pass window_id.",
    );
  });

  it("reads back the texts it writes where the text determines the envelope", () => {
    for (const code of ["stale_element_token", "session_ended"] as const) {
      expect(readRefusalText(refusalMessage(code, "click", {}))).toEqual({ code, message: refusalMessage(code, "click", {}) });
    }
    const background = readRefusalText(refusalMessage("background_unavailable", "type_text", {}));
    const structured = refusalStructured({ code: "background_unavailable", message: "", args: {} });
    expect(background).toEqual({ code: "background_unavailable", detail: structured.detail, suggestion: structured.suggestion });
    expect(readRefusalText("something else")).toBeUndefined();
  });
});
