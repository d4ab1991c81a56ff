/**
 * vitest setup (every worker, before any test file): the test endpoints of test-env.ts go into `process.env`, so
 * in-process runs and children that inherit the environment never use the publisher's defaults; and any socket this
 * worker opens to a host that is not loopback throws before a single packet is sent (a second line, should a test
 * build its configuration some other way).
 */
import net from "node:net";
import { isLoopbackHost, TEST_ENDPOINT_ENV } from "./test-env.js";

for (const [k, v] of Object.entries(TEST_ENDPOINT_ENV)) process.env[k] = v;

const connect = net.Socket.prototype.connect as (...args: unknown[]) => net.Socket;
net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]): net.Socket {
  const first = args[0];
  let host: string | undefined;
  let path: string | undefined;
  if (Array.isArray(first)) {
    // Node's internal normalized form: [options, callback].
    const o = first[0] as { host?: string; path?: string } | undefined;
    host = o?.host;
    path = o?.path;
  } else if (typeof first === "object" && first !== null) {
    host = (first as { host?: string }).host;
    path = (first as { path?: string }).path;
  } else if (typeof first === "string" && !/^\d+$/.test(first)) {
    path = first;
  } else {
    host = typeof args[1] === "string" ? args[1] : undefined;
  }
  if (path === undefined && !isLoopbackHost(host)) {
    throw new Error(`test guard: a connection to ${host} was attempted; tests may only connect to 127.0.0.1 (test/helpers/no-outside-network.ts)`);
  }
  return connect.apply(this, args);
} as typeof net.Socket.prototype.connect;
