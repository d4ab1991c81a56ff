// Preloaded into a child process (NODE_OPTIONS=--require …) by tests that start the server with the publisher's
// default endpoints: a socket to any host that is not loopback fails as a refused connection would, before any
// lookup or packet, and one line on stderr names the host (so the test can see which address was chosen).
"use strict";
const net = require("node:net");
const connect = net.Socket.prototype.connect;
const loopback = (h) => h === undefined || h === "" || h === "localhost" || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h);
net.Socket.prototype.connect = function (...args) {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const isObject = typeof first === "object" && first !== null;
  const port = isObject ? first.port : first;
  const host = isObject ? first.host : typeof args[1] === "string" ? args[1] : undefined;
  // A TCP connection has a port (HTTP options also carry the request path, which is not a pipe then).
  const tcp = port !== undefined && port !== null && !(typeof port === "string" && !/^\d+$/.test(port));
  if (tcp && !loopback(host)) {
    process.stderr.write(`loopback-only: refused a connection to ${host}:${port}\n`);
    const err = Object.assign(new Error(`connect ECONNREFUSED ${host}:${port} (loopback-only test guard)`), { code: "ECONNREFUSED" });
    process.nextTick(() => this.destroy(err));
    return this;
  }
  return connect.apply(this, args);
};
