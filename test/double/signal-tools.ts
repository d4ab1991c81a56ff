/**
 * The double's signal tools (hosted-tool-server.md §3.5–§3.10): list_signals, get_signal, get_newsroom,
 * whats_happening and gfw_reading.
 *
 * A call whose files are all published locally is computed from them with the reference rules (neutralization,
 * row caps, payload key order), which reproduces the recorded samples byte for byte. A call that needs a file the
 * snapshot does not publish is answered from its recording when one matches the normalized arguments; otherwise
 * that file is treated as absent at the origin (`unavailable`). Origin faults always compute.
 */
import { capRows, capTranscriptCells, gapReport, neutralize, stripInvisible, UNTRUSTED_FIELDS } from "./neutralize.js";
import type { Origin } from "./origin.js";
import { NOT_FOUND } from "./origin.js";
import { deepCopy, isPyObject, obj, PyNum, pyParse, pyStr, type PyObject, type PyValue } from "./py-json.js";
import type { RecordedData } from "./recorded.js";
import { RpcError, ToolFailure, type ToolAnswer } from "./rpc-types.js";

const FAIL_LOUD = "fail-loud: fetch failure is explicit; no replacement is invented";
const GFW_NOTE =
  "network blocking (OONI, measured inside China) beside model-layer censorship (Generative Firewall Index); two different layers of the same wall";
const WHATS_MORE =
  "row arrays inside full were capped at 25 per array; counts above are the true totals. This tool takes no arguments, so call get_signal with the signal name and a higher max_rows (up to 500) for the rest.";
const GFW_MORE =
  "row arrays were capped at 25 per array; counts above are the true totals. This combined view takes no arguments, so call get_signal with the signal name and a higher max_rows (up to 500) for the rest.";

/** get_newsroom views: signal read and collection key (§3.8). */
const VIEWS: Record<string, { signal: string; collection: string | null }> = {
  newsroom: { signal: "newsroom", collection: "stories" },
  wire: { signal: "evidence-wire", collection: "items" },
  economy: { signal: "china-economic-pulse", collection: null },
  "machine-analysis": { signal: "machine-investigations", collection: "cases" },
  investigations: { signal: "investigations", collection: "cases" },
  "editorial-readiness": { signal: "editorial-readiness", collection: null },
  interconnection: { signal: "china-situation", collection: "situations" },
};
const VIEW_NAMES = Object.keys(VIEWS);

/** Python `int(v)` with the reference's fallback and clamp; `inf` raises like Python's OverflowError. */
export function coerceInt(v: PyValue | undefined, fallback: number, min: number, max: number): number {
  let n: number;
  if (v === true) n = 1;
  else if (v === false) n = 0;
  else if (v instanceof PyNum) {
    if (v.kind === "int") n = v.value;
    else if (Number.isNaN(v.value)) n = fallback;
    else if (!Number.isFinite(v.value)) throw new ToolFailure("cannot convert float infinity to integer");
    else n = Math.trunc(v.value);
  } else if (typeof v === "string" && /^\s*[+-]?[0-9]+(?:_[0-9]+)*\s*$/.test(v)) n = Number(v.replace(/[\s_]/g, ""));
  else n = fallback;
  return Math.min(max, Math.max(min, n));
}

interface SignalInfo {
  name: string;
  url: string;
  /** Published path relative to the origin (`readings/x.json`). */
  path: string;
}

export class SignalTools {
  private readonly signals = new Map<string, SignalInfo>();
  private readonly untrustedNote: string;
  private readonly whatsHowToRead: string;
  /** Normalized argument key → recorded body file, per tool. */
  private readonly replays = new Map<string, string>();

  constructor(
    private readonly data: RecordedData,
    private readonly origin: Origin,
    /** Site base written into payloads (`{base_url}`), no trailing slash. */
    site: string,
  ) {
    const recordedOrigin = data.recordedOrigin();
    const list = this.structured("11-list_signals.json");
    for (const s of list.get("signals") as PyValue[]) {
      const m = s as PyObject;
      const url = m.get("url") as string;
      const path = url.slice(recordedOrigin.length + 1);
      this.signals.set(m.get("name") as string, { name: m.get("name") as string, url: `${site}/${path}`, path });
    }
    this.untrustedNote = this.structured("13-get_signal-eval-assurance.json").get("untrusted_note") as string;
    this.whatsHowToRead = this.structured("32-whats_happening.json").get("how_to_read_this") as string;
    for (const ex of data.exchanges()) {
      if (ex.requestBody === null || ex.httpStatus !== 200) continue;
      let req: PyValue;
      try {
        req = pyParse(ex.requestBody);
      } catch {
        continue;
      }
      if (!isPyObject(req) || req.get("method") !== "tools/call") continue;
      const params = req.get("params") as PyObject;
      const args = params.get("arguments");
      const key = this.replayKey(params.get("name") as string, isPyObject(args) ? args : new Map());
      if (key !== undefined && !this.replays.has(key)) this.replays.set(key, ex.file);
    }
  }

  private structured(file: string): PyObject {
    const body = pyParse(this.data.body(file).toString("utf8")) as PyObject;
    return (body.get("result") as PyObject).get("structuredContent") as PyObject;
  }

  /** Normalized identity of a call, for matching recordings; undefined when the arguments are invalid. */
  private replayKey(tool: string, args: PyObject): string | undefined {
    try {
      if (tool === "get_signal") return `get_signal|${this.signalName(args)}|${coerceInt(args.get("max_rows"), 25, 1, 500)}`;
      if (tool === "get_newsroom") {
        const view = this.viewName(args);
        if (VIEWS[view].collection === null) return `get_newsroom|${view}`;
        return `get_newsroom|${view}|${coerceInt(args.get("limit"), 10, 1, 50)}|${filterText(args.get("status"))}|${filterText(args.get("priority"))}`;
      }
      if (tool === "whats_happening" || tool === "gfw_reading" || tool === "list_signals") return tool;
    } catch {
      return undefined;
    }
    return undefined;
  }

  private replay(tool: string, args: PyObject): ToolAnswer | undefined {
    const key = this.replayKey(tool, args);
    const file = key === undefined ? undefined : this.replays.get(key);
    return file === undefined ? undefined : { kind: "replay", file };
  }

  private signalName(args: PyObject): string {
    const raw = args.has("name") ? args.get("name") : "";
    const name = pyStr(raw).trim().toLowerCase();
    if (!this.signals.has(name)) throw new RpcError(-32602, `unknown signal '${name}' \u2014 list_signals names them`);
    return name;
  }

  private viewName(args: PyObject): string {
    const raw = args.has("view") ? args.get("view") : "newsroom";
    const view = pyStr(raw).trim().toLowerCase();
    if (!(view in VIEWS)) throw new RpcError(-32602, `unknown newsroom view '${view}' \u2014 choose ${VIEW_NAMES.join(", ")}`);
    return view;
  }

  listSignals(): ToolAnswer {
    return { kind: "replay", file: "11-list_signals.json" };
  }

  async getSignal(args: PyObject): Promise<ToolAnswer> {
    const name = this.signalName(args);
    const cap = coerceInt(args.get("max_rows"), 25, 1, 500);
    const info = this.signals.get(name)!;
    if (!this.origin.faulted && !this.origin.has(info.path)) {
      const r = this.replay("get_signal", args);
      if (r) return r;
    }
    const got = await this.origin.reading(info.path);
    if (!got.ok) {
      return payload([
        ["signal", name],
        ["unavailable", got.reason],
        ["note", FAIL_LOUD],
      ]);
    }
    const { value, gap } = neutralize(deepCopy(got.value));
    const truncated = capRows(value, cap);
    if (name === "gfi-transcripts") capTranscriptCells(value, cap, truncated);
    const out: Array<[string, PyValue]> = [
      ["signal", name],
      ["source_url", info.url],
      ["data", value],
      ["untrusted_fields", [...UNTRUSTED_FIELDS]],
    ];
    if (truncated.size > 0) {
      out.push(["truncated", truncated]);
      out.push([
        "how_to_see_everything",
        `row arrays or keyed cells were capped at max_rows=${cap}; call again with a higher max_rows (up to 500), or fetch source_url for the complete payload. Counts above are the true totals.`,
      ]);
    }
    if (gap > 0) out.push(["neutralization_gap", gapReport(gap)]);
    out.push(["untrusted_note", this.untrustedNote]);
    return payload(out);
  }

  /**
   * get_newsroom: argument handling is computed; payloads are replayed from the recordings, because the snapshot
   * publishes none of the newsroom files. A view without a matching recording, or any call while the origin is
   * faulted, gets the reference's `unavailable` payload.
   */
  async getNewsroom(args: PyObject): Promise<ToolAnswer> {
    const view = this.viewName(args);
    coerceInt(args.get("limit"), 10, 1, 50);
    const { signal } = VIEWS[view];
    const info = this.signals.get(signal)!;
    if (!this.origin.faulted) {
      const r = this.replay("get_newsroom", args);
      if (r) return r;
    }
    const got = await this.origin.bytes(info.path);
    const reason = got.ok ? NOT_FOUND : got.reason;
    return payload([
      ["view", view],
      ["signal", signal],
      ["source_url", info.url],
      ["unavailable", reason],
      ["note", FAIL_LOUD],
    ]);
  }

  /** Reads several signals for the combined views: data (neutralized, capped at 25) or `{unavailable}`. */
  private async combined(names: string[]): Promise<{
    parts: PyObject;
    truncated: PyObject;
    gaps: PyObject;
    raw: Map<string, PyValue>;
  }> {
    const parts: PyObject = new Map();
    const truncated: PyObject = new Map();
    const gaps: PyObject = new Map();
    const raw = new Map<string, PyValue>();
    for (const name of names) {
      const got = await this.origin.reading(this.signals.get(name)!.path);
      if (!got.ok) {
        parts.set(name, obj([["unavailable", got.reason]]));
        continue;
      }
      const { value, gap } = neutralize(deepCopy(got.value));
      const t = capRows(value, 25);
      parts.set(name, value);
      raw.set(name, value);
      if (t.size > 0) truncated.set(name, t);
      if (gap > 0) gaps.set(name, gapReport(gap));
    }
    return { parts, truncated, gaps, raw };
  }

  private needsReplay(names: string[]): boolean {
    return !this.origin.faulted && names.some((n) => !this.origin.has(this.signals.get(n)!.path));
  }

  async whatsHappening(): Promise<ToolAnswer> {
    const names = ["board-alarm", "coverage-guard"];
    if (this.needsReplay(names)) {
      const r = this.replay("whats_happening", new Map());
      if (r) return r;
    }
    const { parts, truncated, gaps, raw } = await this.combined(names);
    const board = raw.get("board-alarm");
    const guard = raw.get("coverage-guard");
    const confounded: PyValue[] = [];
    if (isPyObject(guard) && Array.isArray(guard.get("confounded"))) {
      for (const c of guard.get("confounded") as PyValue[]) {
        const label = isPyObject(c) ? (c.get("signal") ?? c.get("name") ?? null) : c;
        confounded.push(typeof label === "string" ? stripInvisible(label) : pyStr(label));
      }
    }
    const headline = isPyObject(board) && typeof board.get("headline") === "string" ? (board.get("headline") as string) : null;
    let answer = headline ?? "board unavailable";
    if (confounded.length > 0) {
      answer += ` \u2014 but ${confounded.join(", ")} moved with its own measurement coverage and must NOT be read as a censorship change`;
    }
    const field = (k: string): PyValue => (isPyObject(board) ? (board.get(k) ?? null) : null);
    const fdr = field("fdr_selection");
    const out: Array<[string, PyValue]> = [
      ["answer", answer],
      ["board_e_value", field("board_e_value")],
      ["elevated_layers", field("elevated_layers")],
      ["layer_coincidence", field("layer_coincidence")],
      ["signals_surviving_multiplicity", isPyObject(fdr) ? (fdr.get("selected") ?? null) : null],
      ["coverage_confounded", confounded],
      ["how_to_read_this", this.whatsHowToRead],
      ["full", parts],
      ["untrusted_fields", [...UNTRUSTED_FIELDS]],
      ["untrusted_note", this.untrustedNote],
    ];
    if (truncated.size > 0) out.push(["truncated", truncated], ["how_to_see_everything", WHATS_MORE]);
    if (gaps.size > 0) out.push(["neutralization_gap", gaps]);
    return payload(out);
  }

  async gfwReading(): Promise<ToolAnswer> {
    const names = ["ooni-gfw", "generative-firewall-index"];
    if (this.needsReplay(names)) {
      const r = this.replay("gfw_reading", new Map());
      if (r) return r;
    }
    const { parts, truncated, gaps } = await this.combined(names);
    const out: Array<[string, PyValue]> = [
      ["reading", parts],
      ["untrusted_fields", [...UNTRUSTED_FIELDS]],
      ["untrusted_note", this.untrustedNote],
      ["note", GFW_NOTE],
    ];
    if (truncated.size > 0) out.push(["truncated", truncated], ["how_to_see_everything", GFW_MORE]);
    if (gaps.size > 0) out.push(["neutralization_gap", gaps]);
    return payload(out);
  }
}

function filterText(v: PyValue | undefined): string {
  return v === undefined ? "" : pyStr(v).trim().toLowerCase();
}

function payload(entries: Array<[string, PyValue]>): ToolAnswer {
  return { kind: "payload", payload: obj(entries) };
}
