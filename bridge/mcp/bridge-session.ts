/**
 * One MCP session over a {@link LineTransport}, started without the MCP SDK (docs/startup.md). The session answers
 * what a client asks first, from pinned data: `initialize` (./initialize-answer.ts), `notifications/initialized`,
 * `ping` and `tools/list` (./tools-list.ts). It also runs a plain `tools/call` of a public tool itself
 * (./public-call.ts, loaded on the first one), as the SDK server would and with the same checks, because the SDK's
 * per-message checks cost more than the rest of a proxied call (docs/startup.md "Proxied calls"). Every other
 * message goes to the SDK server of ./server.ts, which is loaded on the first such message; so is any `initialize`,
 * `tools/list` or public `tools/call` whose params are outside the plain subset answered here (the SDK then answers
 * or refuses it exactly as before). Public calls and messages for the SDK are dispatched in the order read, so a
 * message text a request carries is in the outward guard before any later call is checked (./message-intake.ts).
 *
 * The session also runs the start-up discovery of the upstream tools and announces `notifications/tools/list_changed`
 * when it changed the public list, once the client has finished initializing.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Config } from "../../src/config.js";
import type { StoreGuard } from "../../capsules/guard/store-guard.js";
import type { PackPin } from "../../published/pack/pinned.js";
import type { HostedClient } from "../upstream/hosted-client.js";
import { isPublicToolName, PINNED_TOOLS, PUBLIC_TOOL_NAMES, type PublicToolName } from "../upstream/pinned-tools.js";
import { safeErrorLine } from "./error-line.js";
import { fastProtocolVersion, initializeResult } from "./initialize-answer.js";
import { isPlainObject, RpcErrorCode } from "./jsonrpc-message.js";
import type { PrivateState } from "./private-state.js";
import type { PublicToolDeps } from "./public-call.js";
import type { BridgeServer } from "./server.js";
import type { LineTransport } from "./stdio-transport.js";
import { toolListResult } from "./tools-list.js";
import { upstreamHandles, type UpstreamHandles } from "./upstream-handles.js";
import { idKey, type RequestId } from "./wire-table.js";

/** How long `tools/list` waits for the start-up discovery before listing the pinned tools. */
export const DISCOVERY_WAIT_MS = 1500;

export interface BridgeSessionOptions {
  version: string;
  /** One-line diagnostics (stderr in the real process). */
  diagnostics?: (line: string) => void;
  discoveryWaitMs?: number;
  /** Pause before the upstream client's single retry (tests shorten it). */
  retryDelayMs?: number;
  /** The pack pin of the first-need fetch (published/pack/pinned.ts; a test may name its own synthetic pack). */
  packPin?: PackPin;
  /**
   * Leave every public `tools/call` to the SDK server too (test/bridge/mcp/public-call-session.test.ts compares the
   * session's answers with the SDK's).
   */
  publicCallsThroughSdk?: boolean;
}

const RELATED_TASK = "io.modelcontextprotocol/related-task";

/** Params the SDK would treat specially (task creation, a related task): such requests go to the SDK. */
function plainParams(params: unknown): params is Record<string, unknown> | undefined {
  if (params === undefined) return true;
  if (!isPlainObject(params) || params.task !== undefined) return false;
  return !(isPlainObject(params._meta) && params._meta[RELATED_TASK] !== undefined);
}

/** A public `tools/call` the session runs itself (its own class: a queued item is this or a message for the SDK). */
class PublicCall {
  readonly controller = new AbortController();
  constructor(
    readonly id: RequestId,
    readonly name: PublicToolName,
    readonly args: Record<string, unknown>,
    readonly meta: Record<string, unknown> | undefined,
  ) {}
}

/**
 * The call when `params` are those of a plain public `tools/call` the SDK surely accepts (`CallToolRequestSchema`):
 * a public tool's name, and `arguments` absent (the SDK then passes `{}`) or an object without an own `__proto__`
 * member (the SDK's copy of the arguments would make that member the copy's prototype; such a call goes to the
 * SDK). `args` is a copy with the same members in the same order, as the SDK's is.
 */
function publicCallOf(id: RequestId, params: Record<string, unknown> | undefined): PublicCall | undefined {
  if (params === undefined || !isPublicToolName(params.name)) return undefined;
  const a = params.arguments;
  if (a !== undefined && (!isPlainObject(a) || Object.hasOwn(a, "__proto__"))) return undefined;
  return new PublicCall(id, params.name, a === undefined ? {} : { ...a }, params._meta as Record<string, unknown> | undefined);
}

export class BridgeSession {
  readonly upstream: UpstreamHandles;
  private readonly diagnostics: (line: string) => void;
  private readonly waitMs: number;
  private server: BridgeServer | undefined;
  private loading: Promise<BridgeServer> | undefined;
  /** The SDK's side of the session: what ./server.ts connects to. */
  private readonly relay: Transport;
  /** Public calls and messages for the SDK server read while what they need loads, in order. */
  private queue: (JSONRPCMessage | PublicCall)[] = [];
  /** Requests this session answers itself and has not answered yet (a cancellation aborts them and drops the answer). */
  private readonly own = new Map<string, AbortController | undefined>();
  /** What a public call needs (the call module, the egress guard, the private state), once loaded. */
  private publicDeps: { run: typeof import("./public-call.js").answerPublicCall; deps: PublicToolDeps } | undefined;
  private publicLoading: Promise<unknown> | undefined;
  private statePromise: Promise<PrivateState> | undefined;
  private closed = false;
  private clientReady = false;
  private changePending = false;
  private discovery: Promise<unknown> | undefined;
  private discoveryKicked = false;
  private egressPromise: Promise<StoreGuard> | undefined;
  private egressGuard: StoreGuard | undefined;

  constructor(
    private readonly config: Config,
    private readonly transport: LineTransport,
    private readonly opts: BridgeSessionOptions,
  ) {
    this.diagnostics = opts.diagnostics ?? (() => undefined);
    this.waitMs = opts.discoveryWaitMs ?? DISCOVERY_WAIT_MS;
    this.upstream = upstreamHandles(config, {
      version: opts.version,
      diagnostics: this.diagnostics,
      retryDelayMs: opts.retryDelayMs,
      // The client sends params in the discovery (which waits for the guard) and in tools/call (run by the server,
      // which loads with it); listing its tools sends nothing. Asked before it is loaded: refuse (fail closed).
      guard: () => {
        if (!this.egressGuard) throw new Error("the egress guard is not loaded yet");
        return this.egressGuard.guard;
      },
    });
    this.relay = {
      start: async () => undefined,
      send: (message) => this.transport.send(message),
      close: () => this.transport.close(),
    };
  }

  /**
   * Starts reading the transport. The upstream discovery starts in the background once the first message has been
   * handled (after the initialize answer is written), or when tools/list needs it.
   */
  async start(): Promise<void> {
    this.transport.onmessage = (m) => {
      this.onMessage(m);
      if (!this.discoveryKicked) {
        this.discoveryKicked = true;
        setImmediate(() => this.startDiscovery());
      }
    };
    this.transport.onclose = () => this.onClose();
    this.transport.onerror = (e) => this.onError(e);
    await this.transport.start();
  }

  /** The egress guard over the private store, shared by the upstream client and the server (loaded on first use). */
  private egress(): Promise<StoreGuard> {
    return (this.egressPromise ??= import("../../capsules/guard/store-guard.js").then(({ StoreGuard }) => (this.egressGuard = new StoreGuard())));
  }

  /** The private state (store and pack), shared by the public calls and the SDK server (loaded on first use). */
  private privateState(): Promise<PrivateState> {
    return (this.statePromise ??= import("./private-state.js").then(
      ({ PrivateState }) => new PrivateState(this.config, { pin: this.opts.packPin, notice: this.opts.diagnostics }),
    ));
  }

  /** The upstream client (created on first use), or undefined without `mcpUrl`. */
  async hostedClient(): Promise<HostedClient | undefined> {
    return this.upstream.hosted ? this.upstream.hosted() : undefined;
  }

  /** Whether the SDK server has been loaded (for tests and docs/startup.md). */
  get serverLoaded(): boolean {
    return this.server !== undefined;
  }

  /** The tools/list result: pinned private entries and the public tools after discovery had a short chance. */
  toolList(): Promise<{ tools: Tool[] }> {
    return toolListResult(async () => {
      if (!this.upstream.hosted) return undefined;
      this.startDiscovery();
      if (this.discovery) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([this.discovery, new Promise((r) => (timer = setTimeout(r, this.waitMs)))]);
        clearTimeout(timer);
      }
      return this.upstream.hosted();
    });
  }

  // ---- messages -----------------------------------------------------------------------------------------------

  private onMessage(message: JSONRPCMessage): void {
    const m = message as Record<string, unknown>;
    if (typeof m.method === "string" && "id" in m) {
      const id = m.id as RequestId;
      const params = m.params;
      if (plainParams(params)) {
        if (m.method === "initialize") {
          const version = fastProtocolVersion(params);
          if (version !== undefined) return this.answer(id, async () => initializeResult(version, this.opts.version));
        } else if (m.method === "ping") {
          return this.answer(id, async () => ({}));
        } else if (m.method === "tools/list" && (params?.cursor === undefined || typeof params.cursor === "string")) {
          return this.answer(id, () => this.toolList());
        } else if (m.method === "tools/call" && !this.opts.publicCallsThroughSdk) {
          const call = publicCallOf(id, params);
          if (call !== undefined) {
            this.own.set(idKey(id), call.controller);
            return this.dispatch(call);
          }
        }
      }
    } else if (m.method === "notifications/initialized") {
      this.clientReady = true;
      this.announceChange();
      return;
    } else if (m.method === "notifications/cancelled" && isPlainObject(m.params)) {
      const { requestId: target, reason } = m.params;
      const validTarget = typeof target === "string" || (typeof target === "number" && Number.isSafeInteger(target));
      if (validTarget && this.own.has(idKey(target))) {
        const controller = this.own.get(idKey(target));
        this.own.delete(idKey(target));
        controller?.abort(reason);
        return;
      }
      // A well-formed cancellation with nothing in flight elsewhere: the SDK would ignore it too.
      if (!this.server && !this.loading && (target === undefined || validTarget) && (reason === undefined || typeof reason === "string")) return;
    }
    this.dispatch(message);
  }

  /** Answers a request here, as the SDK's Protocol would (a result, or an error with the thrown code). */
  private answer(id: RequestId, run: () => Promise<object>): void {
    const key = idKey(id);
    if (!this.own.has(key)) this.own.set(key, undefined);
    run().then(
      (result) => {
        if (this.own.delete(key)) return this.transport.send({ result, jsonrpc: "2.0", id } as JSONRPCMessage);
      },
      (error: { code?: unknown; message?: string; data?: unknown }) => {
        if (!this.own.delete(key)) return;
        const code = typeof error.code === "number" && Number.isSafeInteger(error.code) ? error.code : RpcErrorCode.InternalError;
        const body = { code, message: error.message ?? "Internal error", ...(error.data !== undefined && { data: error.data }) };
        return this.transport.send({ jsonrpc: "2.0", id, error: body } as JSONRPCMessage);
      },
    ).catch((e: Error) => this.onError(new Error(`Failed to send response: ${e}`)));
  }

  /**
   * Runs a public call or hands a message to the SDK server, in the order read: while what the first waiting one
   * needs loads, later ones wait behind it.
   */
  private dispatch(item: JSONRPCMessage | PublicCall): void {
    if (this.closed) return;
    this.queue.push(item);
    if (this.queue.length === 1) this.drain();
  }

  private drain(): void {
    while (this.queue.length > 0 && !this.closed) {
      const item = this.queue[0];
      if (item instanceof PublicCall) {
        if (!this.publicDeps) {
          this.publicLoading ??= this.loadPublic().then(
            () => this.drain(),
            (e: Error) => this.failQueued(e),
          );
          return;
        }
        this.queue.shift();
        this.runPublic(item, this.publicDeps);
      } else {
        if (!this.server) {
          this.loading ??= this.load();
          this.loading.then(
            () => this.drain(),
            (e: Error) => this.failQueued(e),
          );
          return;
        }
        this.queue.shift();
        this.relay.onmessage?.(item);
      }
    }
  }

  /** A module that cannot load (a broken installation): said once, and the session ends rather than leave requests unanswered. */
  private failQueued(e: Error): void {
    if (this.closed) return;
    this.diagnostics(`mcp: cannot load the server: ${safeErrorLine(e)}`);
    this.transport.close().catch(() => undefined);
  }

  private async loadPublic(): Promise<void> {
    const [{ answerPublicCall }, egress, state] = await Promise.all([import("./public-call.js"), this.egress(), this.privateState()]);
    this.publicDeps = {
      run: answerPublicCall,
      deps: { hosted: this.upstream.hosted, wire: this.transport.wire, egress, state, timeoutMs: this.config.timeoutMs },
    };
  }

  /** A public call, answered as the SDK server answers it (./public-call.ts); a cancelled one writes nothing. */
  private runPublic(call: PublicCall, loaded: NonNullable<BridgeSession["publicDeps"]>): void {
    if (this.own.get(idKey(call.id)) !== call.controller) return; // cancelled while it waited
    const extra = { requestId: call.id, signal: call.controller.signal, ...(call.meta !== undefined && { _meta: call.meta }) };
    this.answer(call.id, () => loaded.run(call.name, call.args, extra, loaded.deps));
  }

  private async load(): Promise<BridgeServer> {
    const [{ createBridgeServer }, egress, state] = await Promise.all([import("./server.js"), this.egress(), this.privateState()]);
    const server = createBridgeServer(this.config, {
      egress,
      state,
      packPin: this.opts.packPin,
      notice: this.opts.diagnostics,
      version: this.opts.version,
      diagnostics: this.diagnostics,
      wire: this.transport.wire,
      upstream: this.upstream,
      toolList: () => this.toolList(),
    });
    await server.mcp.connect(this.relay);
    this.server = server;
    return server;
  }

  private onClose(): void {
    this.closed = true;
    // As the SDK aborts its handlers here: the session's own calls are aborted, and nothing more is answered.
    const calls = [...this.own.values()];
    this.own.clear();
    for (const c of calls) c?.abort(new Error("the connection closed"));
    this.queue = [];
    this.relay.onclose?.();
  }

  private onError(e: Error): void {
    if (this.server) this.relay.onerror?.(e);
    else this.diagnostics(`mcp: ${safeErrorLine(e)}`);
  }

  // ---- discovery ----------------------------------------------------------------------------------------------

  /** tools/list_changed after a discovery that changed the public list, once the client has finished initializing. */
  private announceChange(): void {
    if (this.clientReady && this.changePending && !this.closed) {
      this.changePending = false;
      this.transport.send({ method: "notifications/tools/list_changed", jsonrpc: "2.0" }).catch((e: Error) => this.onError(e));
    }
  }

  /**
   * The upstream discovery in the background, for an endpoint the user configured: the publisher's default endpoint
   * is never contacted before the first public-tool call (product.md §4).
   */
  private startDiscovery(): void {
    const hosted = this.upstream.hosted;
    if (!hosted || this.discovery || this.closed || this.config.defaults.mcpUrl) return;
    this.discovery = Promise.all([hosted(), this.egress()])
      .then(async ([c]) => {
        await c.discover();
        // Clients that listed the pinned tools before discovery finished learn that the list changed.
        const names = c.listTools().map((t) => `${t.name}\u0000${t.title}\u0000${t.description}`);
        const pinned = PUBLIC_TOOL_NAMES.map((n) => `${n}\u0000${PINNED_TOOLS[n].title}\u0000${PINNED_TOOLS[n].description}`);
        if (names.join("\n") !== pinned.join("\n")) {
          this.changePending = true;
          this.announceChange();
        }
      })
      .catch((e: Error) => this.diagnostics(`tool discovery failed: ${safeErrorLine(e)}`));
  }

  /** After the transport finished: closes the SDK server (if it was loaded) and the upstream handles. */
  async close(): Promise<void> {
    const server = this.server ?? (this.loading ? await this.loading.catch(() => undefined) : undefined);
    if (server) await server.mcp.close();
    await this.upstream.close();
  }
}
