/**
 * The JSON Schema `uri` format (an absolute RFC 3986 URI, fragment allowed) and `iri` format (the RFC 3987
 * equivalent, which also admits non-ASCII `ucschar` characters, and `iprivate` characters in the query).
 * Relative references are neither.
 */

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/;

/** ASCII classes as bit flags: unreserved or sub-delims; hex digit. */
const UNRESERVED_OR_SUB = 1;
const HEXDIG = 2;
const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z0-9\-._~!$&'()*+,;=]/.test(ch)) CLASS[c] |= UNRESERVED_OR_SUB;
  if (/[0-9A-Fa-f]/.test(ch)) CLASS[c] |= HEXDIG;
}

function isHex(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c < 128 && (CLASS[c] & HEXDIG) !== 0;
}

/** RFC 3987 `ucschar`. */
function isUcschar(cp: number): boolean {
  if (cp >= 0xa0 && cp <= 0xd7ff) return true;
  if (cp >= 0xf900 && cp <= 0xfdcf) return true;
  if (cp >= 0xfdf0 && cp <= 0xffef) return true;
  if (cp >= 0xe1000 && cp <= 0xefffd) return true;
  // %x10000-1FFFD / %x20000-2FFFD / ... / %xD0000-DFFFD: every plane 1–13 except its last two code points.
  return cp >= 0x10000 && cp <= 0xdfffd && (cp & 0xffff) <= 0xfffd;
}

/** RFC 3987 `iprivate`. */
function isIprivate(cp: number): boolean {
  return (cp >= 0xe000 && cp <= 0xf8ff) || (cp >= 0xf0000 && cp <= 0xffffd) || (cp >= 0x100000 && cp <= 0x10fffd);
}

interface Mode {
  iri: boolean;
}

/**
 * True when every character of `s` is allowed: unreserved, sub-delims, percent-encoded octets, the characters in
 * `extra`, and (IRI mode) `ucschar`, plus `iprivate` when `privateOk`.
 */
function allowed(s: string, extra: string, mode: Mode, privateOk = false): boolean {
  for (let i = 0; i < s.length; ) {
    const c = s.charCodeAt(i);
    if (c < 128) {
      if (c === 0x25) {
        if (!isHex(s, i + 1) || !isHex(s, i + 2)) return false;
        i += 3;
      } else if ((CLASS[c] & UNRESERVED_OR_SUB) !== 0 || extra.includes(s[i])) i++;
      else return false;
      continue;
    }
    const cp = s.codePointAt(i)!;
    if (!mode.iri || !(isUcschar(cp) || (privateOk && isIprivate(cp)))) return false;
    i += cp > 0xffff ? 2 : 1;
  }
  return true;
}

function isDecOctet(s: string): boolean {
  return /^(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])$/.test(s);
}

export function isIpv4(s: string): boolean {
  const parts = s.split(".");
  return parts.length === 4 && parts.every(isDecOctet);
}

/** RFC 3986 `IPv6address` (with an optional trailing IPv4 part). */
export function isIpv6(s: string): boolean {
  const halves = s.split("::");
  if (halves.length > 2) return false;
  const groups = (part: string): string[] | undefined => (part === "" ? [] : part.split(":"));
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  if (head === undefined || tail === undefined) return false;
  const all = [...head, ...tail];
  let units = 0;
  for (let i = 0; i < all.length; i++) {
    const g = all[i];
    const last = i === all.length - 1;
    if (last && g.includes(".")) {
      if (!isIpv4(g)) return false;
      units += 2;
    } else if (/^[0-9A-Fa-f]{1,4}$/.test(g)) {
      units += 1;
    } else {
      return false;
    }
  }
  return halves.length === 2 ? units <= 7 : units === 8;
}

function isIpLiteral(inner: string): boolean {
  if (/^[vV][0-9A-Fa-f]+\./.test(inner)) {
    const rest = inner.slice(inner.indexOf(".") + 1);
    return rest.length > 0 && allowed(rest, ":", { iri: false });
  }
  return isIpv6(inner);
}

function isAuthority(auth: string, mode: Mode): boolean {
  const at = auth.indexOf("@");
  let hostPort = auth;
  if (at !== -1) {
    if (!allowed(auth.slice(0, at), ":", mode)) return false;
    hostPort = auth.slice(at + 1);
  }
  let host: string;
  let port = "";
  if (hostPort.startsWith("[")) {
    const close = hostPort.indexOf("]");
    if (close === -1 || !isIpLiteral(hostPort.slice(1, close))) return false;
    const after = hostPort.slice(close + 1);
    if (after !== "" && !after.startsWith(":")) return false;
    port = after.slice(1);
    host = "";
  } else {
    const colon = hostPort.lastIndexOf(":");
    host = colon === -1 ? hostPort : hostPort.slice(0, colon);
    port = colon === -1 ? "" : hostPort.slice(colon + 1);
    if (!allowed(host, "", mode)) return false;
  }
  return /^[0-9]*$/.test(port);
}

function isAbsolute(s: string, mode: Mode): boolean {
  const colon = s.indexOf(":");
  if (colon <= 0 || !SCHEME.test(s.slice(0, colon))) return false;
  let rest = s.slice(colon + 1);
  let fragment: string | undefined;
  const hash = rest.indexOf("#");
  if (hash !== -1) {
    fragment = rest.slice(hash + 1);
    rest = rest.slice(0, hash);
  }
  let query: string | undefined;
  const q = rest.indexOf("?");
  if (q !== -1) {
    query = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  let path = rest;
  if (rest.startsWith("//")) {
    const slash = rest.indexOf("/", 2);
    const authority = slash === -1 ? rest.slice(2) : rest.slice(2, slash);
    path = slash === -1 ? "" : rest.slice(slash);
    if (!isAuthority(authority, mode)) return false;
  }
  // With or without an authority, a path is segments of pchar joined by "/" (RFC 3986 §3.3); without an
  // authority it cannot begin with "//", which the branch above already took.
  if (!allowed(path, ":@/", mode)) return false;
  if (query !== undefined && !allowed(query, ":@/?", mode, true)) return false;
  if (fragment !== undefined && !allowed(fragment, ":@/?", mode)) return false;
  return true;
}

/**
 * The common shape of an absolute URI, decided by one regular expression: `scheme://host` (unreserved and
 * sub-delims only: no user, no port, no brackets), then a path, query and fragment of unreserved, sub-delims,
 * `:@/` (and `?` after the path) and complete percent-escapes, all ASCII. Everything it matches, {@link isAbsolute}
 * accepts in both modes (tested on generated strings); anything else goes through {@link isAbsolute}.
 */
const SIMPLE_URI =
  /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[A-Za-z0-9\-._~!$&'()*+,;=]*(?:\/(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-Fa-f]{2})*)?(?:\?(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})*)?(?:#(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})*)?$/;

/** JSON Schema `uri`: an absolute RFC 3986 URI. */
export function isUri(s: string): boolean {
  return SIMPLE_URI.test(s) || isAbsolute(s, { iri: false });
}

/** JSON Schema `iri`: an absolute RFC 3987 IRI. */
export function isIri(s: string): boolean {
  return SIMPLE_URI.test(s) || isAbsolute(s, { iri: true });
}

/** The fast path alone, for its tests. */
export function isSimpleUri(s: string): boolean {
  return SIMPLE_URI.test(s);
}
