/**
 * The double's JSON-RPC layer for one parsed POST body (hosted-tool-server.md §1.2 steps 6–8, §2, §3): shape
 * check, notifications, method dispatch and the Python-style response body.
 */
import { EconomicTool } from "./economic.js";
import type { Origin } from "./origin.js";
import { isPyObject, obj, PyNum, pyDumps, pyParse, pyRepr, pyStr, type PyObject, type PyValue } from "./py-json.js";
import { type RecordedData, withId } from "./recorded.js";
import { DropConnection, RpcError, ToolFailure, type ToolAnswer } from "./rpc-types.js";
import { coerceInt, SignalTools } from "./signal-tools.js";
import { toolListResult, WRITE_TOOL, type Toolset, type ToolListChanges } from "./tool-list.js";

export const SUPPORTED_VERSIONS = ["2025-03-26", "2025-06-18"];

/** What the HTTP layer sends back for one message. */
export type RpcReply = { kind: "json"; status: number; body: string } | { kind: "accepted" } | { kind: "drop" };

/** Prompt texts the recordings do not contain (only signal_deep_dive was recorded): the §2.3 summaries. */
const UNRECORDED_PROMPT_TEXT: Record<string, string> = {
  evidence_desk_briefing:
    "Call get_newsroom with the machine-analysis, newsroom, investigations and editorial-readiness views. Keep status, citations and counterevidence; never present an abstention or blocked case as published.",
  censorship_briefing: "Call whats_happening, then gfw_reading, then get_signal for the signals that moved. State uncertainty before interpretation.",
  gfw_status_check: "Answer from gfw_reading, both layers, with the measurement vantage stated first.",
};

export function errorBody(idText: string, code: number, message: string): string {
  return `{"jsonrpc": "2.0", "id": ${idText}, "error": {"code": ${code}, "message": ${pyDumps(message)}}}`;
}

function truthy(v: PyValue | undefined): boolean {
  if (v === undefined || v === null || v === false || v === "") return false;
  if (v instanceof PyNum) return v.value !== 0;
  if (Array.isArray(v)) return v.length > 0;
  if (isPyObject(v)) return v.size > 0;
  return true;
}

export interface RpcOptions {
  data: RecordedData;
  origin: Origin;
  site: string;
  recordedOrigin: string;
  toolset: Toolset;
  cacheTtlMs: number;
  /** Payload of research_catalog calls (the response shape is not specified anywhere; tests supply their own). */
  researchCatalogPayload?: (offset: number, limit: number) => PyObject;
}

export class RpcHandler {
  readonly signals: SignalTools;
  readonly economic: EconomicTool;
  toolListChanges: ToolListChanges = { extraWriteTool: false, readOnlyRemovedFrom: undefined, schemaChangedFor: undefined };
  private readonly prompts: PyObject[];
  private readonly deepDive: [string, string];

  constructor(private readonly opts: RpcOptions) {
    this.signals = new SignalTools(opts.data, opts.origin, opts.site);
    const econSample = pyParse(opts.data.body("34-query_econ-no-args.json").toString("utf8")) as PyObject;
    const howToRead = ((econSample.get("result") as PyObject).get("structuredContent") as PyObject).get("how_to_read_this") as string;
    this.economic = new EconomicTool(opts.origin, opts.site, opts.cacheTtlMs, howToRead);
    const prompts = pyParse(opts.data.body("06-prompts-list.json").toString("utf8")) as PyObject;
    this.prompts = ((prompts.get("result") as PyObject).get("prompts") as PyValue[]) as PyObject[];
    const dive = pyParse(opts.data.body("07-prompts-get-signal_deep_dive.json").toString("utf8")) as PyObject;
    const msg = (((dive.get("result") as PyObject).get("messages") as PyValue[])[0] as PyObject).get("content") as PyObject;
    const text = msg.get("text") as string;
    const at = text.indexOf("'ooni-gfw'");
    this.deepDive = [text.slice(0, at), text.slice(at + "'ooni-gfw'".length)];
  }

  /** A recorded body with the request's id and the configured site base. */
  replay(file: string, idText: string): string {
    let body = withId(this.opts.data.body(file).toString("utf8"), idText);
    if (this.opts.site !== this.opts.recordedOrigin) body = body.split(this.opts.recordedOrigin).join(this.opts.site);
    return body;
  }

  /** Steps 6–8 of §1.2 for a parsed body (`null` for an empty one). */
  async handle(message: PyValue): Promise<RpcReply> {
    const isObj = isPyObject(message);
    if (!isObj || message.get("jsonrpc") !== "2.0" || typeof message.get("method") !== "string") {
      const idText = isObj && message.has("id") ? pyDumps(message.get("id")) : "null";
      return { kind: "json", status: 200, body: errorBody(idText, -32600, "not a JSON-RPC 2.0 message") };
    }
    if (!message.has("id")) return { kind: "accepted" };
    const idText = pyDumps(message.get("id"));
    const method = message.get("method") as string;
    const rawParams = message.get("params");
    const params: PyObject = isPyObject(rawParams) ? rawParams : new Map();
    try {
      const body = await this.dispatch(method, params, idText);
      return { kind: "json", status: 200, body };
    } catch (e) {
      if (e instanceof DropConnection) return { kind: "drop" };
      if (e instanceof RpcError) return { kind: "json", status: 200, body: errorBody(idText, e.code, e.message) };
      throw e;
    }
  }

  private result(idText: string, result: PyValue): string {
    return `{"jsonrpc": "2.0", "id": ${idText}, "result": ${pyDumps(result)}}`;
  }

  private async dispatch(method: string, params: PyObject, idText: string): Promise<string> {
    switch (method) {
      case "initialize": {
        const body = this.replay("00-initialize.json", idText);
        const asked = params.get("protocolVersion");
        if (typeof asked === "string" && SUPPORTED_VERSIONS.includes(asked) && asked !== "2025-06-18") {
          return body.replace('"protocolVersion": "2025-06-18"', `"protocolVersion": "${asked}"`);
        }
        return body;
      }
      case "ping":
        return this.result(idText, new Map());
      case "tools/list": {
        const result = toolListResult(this.opts.data, this.opts.toolset, this.toolListChanges);
        if (!result) return this.replay("05-tools-list.json", idText);
        const text = this.result(idText, result);
        return this.opts.site === this.opts.recordedOrigin ? text : text.split(this.opts.recordedOrigin).join(this.opts.site);
      }
      case "prompts/list":
        return this.replay("06-prompts-list.json", idText);
      case "prompts/get":
        return this.result(idText, this.promptsGet(params));
      case "resources/list":
        return this.result(idText, obj([["resources", []]]));
      case "tools/call":
        return this.toolsCall(params, idText);
      default:
        throw new RpcError(-32601, `method not found: ${method}`);
    }
  }

  private promptsGet(params: PyObject): PyObject {
    const name = params.get("name");
    const prompt = this.prompts.find((p) => p.get("name") === name);
    if (!prompt) throw new RpcError(-32602, `unknown prompt: ${pyStr(name)}`);
    const rawArgs = params.get("arguments");
    const args: PyObject = isPyObject(rawArgs) ? rawArgs : new Map();
    const missing = (prompt.get("arguments") as PyObject[])
      .filter((a) => a.get("required") === true && !truthy(args.get(a.get("name") as string)))
      .map((a) => a.get("name") as string);
    if (missing.length > 0) throw new RpcError(-32602, `missing required argument(s): ${missing.join(", ")}`);
    const pname = prompt.get("name") as string;
    const text = pname === "signal_deep_dive" ? `${this.deepDive[0]}${pyRepr(args.get("signal"))}${this.deepDive[1]}` : UNRECORDED_PROMPT_TEXT[pname];
    return obj([
      ["description", prompt.get("description")!],
      ["messages", [obj([["role", "user"], ["content", obj([["type", "text"], ["text", text]])]])]],
    ]);
  }

  /** The complete response body for a tool answer. */
  private answerBody(answer: ToolAnswer, idText: string): string {
    if (answer.kind === "replay") return this.replay(answer.file, idText);
    const text = pyDumps(answer.payload, { ascii: false, compact: answer.compactText === true });
    return this.result(
      idText,
      obj([
        ["content", [obj([["type", "text"], ["text", text]])]],
        ["structuredContent", answer.payload],
        ["isError", answer.isError === true],
      ]),
    );
  }

  private async toolsCall(params: PyObject, idText: string): Promise<string> {
    const name = params.get("name");
    if (Array.isArray(name) || isPyObject(name)) throw new DropConnection("unhashable tool name");
    const rawArgs = params.get("arguments");
    const args: PyObject = isPyObject(rawArgs) ? rawArgs : new Map();
    try {
      const answer = await this.runTool(typeof name === "string" ? name : undefined, name, args, idText);
      return this.answerBody(answer, idText);
    } catch (e) {
      if (e instanceof ToolFailure) {
        return this.result(
          idText,
          obj([
            ["content", [obj([["type", "text"], ["text", `tool failed: ${e.message}`]])]],
            ["isError", true],
          ]),
        );
      }
      throw e;
    }
  }

  private async runTool(name: string | undefined, raw: PyValue | undefined, args: PyObject, idText: string): Promise<ToolAnswer> {
    switch (name) {
      case "list_signals":
        return this.signals.listSignals();
      case "get_signal":
        return this.signals.getSignal(args);
      case "get_newsroom":
        return this.signals.getNewsroom(args);
      case "whats_happening":
        return this.signals.whatsHappening();
      case "gfw_reading":
        return this.signals.gfwReading();
      case "query_economic_observations":
        return this.economic.call(args, (a) => Buffer.byteLength(this.answerBody(a, idText)));
      case "research_catalog":
        if (this.opts.toolset !== "current") break;
        return this.researchCatalog(args);
      case WRITE_TOOL:
        if (!this.toolListChanges.extraWriteTool) break;
        return { kind: "payload", payload: obj([["published", true]]) };
    }
    throw new RpcError(-32602, `unknown tool: ${pyStr(raw)}`);
  }

  private researchCatalog(args: PyObject): ToolAnswer {
    const offset = coerceInt(args.get("offset"), 0, 0, 1000);
    const limit = coerceInt(args.get("limit"), 10, 1, 25);
    const payload =
      this.opts.researchCatalogPayload?.(offset, limit) ??
      obj([
        ["offset", PyNum.int(offset)],
        ["limit", PyNum.int(limit)],
        ["datasets", []],
        ["note", "test-double fixture: the research_catalog response shape is not specified, so this payload is synthetic"],
      ]);
    return { kind: "payload", payload };
  }
}
