/**
 * vitest setup (every worker, before any test file): the test endpoints of test-env.ts go into `process.env`, so
 * in-process runs and children that inherit the environment never use the publisher's defaults; and any socket this
 * worker opens to a host that is not loopback throws before a single packet is sent (a second line, should a test
 * build its configuration some other way).
 *
 * Most test files share a worker process with the files before them (vitest.config.ts: `isolate: false`), and this
 * setup runs again before each of them: the socket guard is installed once per process, and the global-state check
 * of leak-guard.ts fails any file that leaves the process changed for the next one.
 */
import net from "node:net";
import { checkNoLeakedState } from "./leak-guard.js";
import { isLoopbackHost, TEST_ENDPOINT_ENV } from "./test-env.js";

for (const [k, v] of Object.entries(TEST_ENDPOINT_ENV)) process.env[k] = v;

const GUARDED = Symbol.for("evidence-bridge.test.connect-guard");
type Connect = ((...args: unknown[]) => net.Socket) & { [GUARDED]?: true };

const connect = net.Socket.prototype.connect as Connect;
if (connect[GUARDED] !== true) {
  const guardedConnect: Connect = function guardedConnect(this: net.Socket, ...args: unknown[]): net.Socket {
    const first = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
    const isObject = typeof first === "object" && first !== null;
    const port = isObject ? (first as { port?: unknown }).port : first;
    const host = isObject ? (first as { host?: string }).host : typeof args[1] === "string" ? args[1] : undefined;
    // A TCP connection has a port (HTTP options also carry the request path, which is not a pipe then).
    const tcp = port !== undefined && port !== null && !(typeof port === "string" && !/^\d+$/.test(port));
    if (tcp && !isLoopbackHost(host)) {
      throw new Error(`test guard: a connection to ${host} was attempted; tests may only connect to 127.0.0.1 (test/helpers/no-outside-network.ts)`);
    }
    return connect.apply(this, args);
  };
  guardedConnect[GUARDED] = true;
  net.Socket.prototype.connect = guardedConnect as typeof net.Socket.prototype.connect;
}

checkNoLeakedState();
