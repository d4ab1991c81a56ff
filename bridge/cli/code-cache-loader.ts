/**
 * Loads a CommonJS bundle file with a V8 code cache (docs/startup.md). Node 20 has no module compile cache for
 * user code (`module.enableCompileCache` arrived in Node 22.1); the one cache it offers is `vm.Script` cachedData.
 * The first run compiles the file as Node's CommonJS loader would and, at exit, writes the code V8 compiled during
 * the run into a per-user cache directory; later runs hand that data back to V8 and skip most parsing and
 * compiling. The cache holds compiled code of the bundle only, never data the program handled.
 *
 * The cache file is named by a SHA-256 of the bundle source, the Node and V8 versions, the architecture and the
 * process's V8 flags, so an upgraded bundle or Node never meets an old cache (V8 itself only checks the source's
 * length and its own version and flags). Any problem with the cache (no private directory, unreadable, rejected
 * by V8, unwritable) means the file is simply compiled; the cache never changes what runs.
 */
import { createHash } from "node:crypto";
import { CODE_PATH_HOOK, CODE_PATH_TAG } from "./code-path.js";
import { isAscii } from "node:buffer";
import { closeSync, constants, fstatSync, futimesSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { Script } from "node:vm";

/** Turns the code cache off when set to "0" (e.g. to measure a cold start). */
export const CODE_CACHE_ENV = "EVIDENCE_BRIDGE_CODE_CACHE";

/** Largest cache file read back (the biggest bundle's cache is a few MB). */
const MAX_CACHE_BYTES = 64 << 20;

/** A cache file's name after `<name>-`: the key and the suffix. */
const CACHE_NAME = /^[0-9a-f]{32}\.v8$/;
/** A cache file's whole name: `<file name>-<path digest>-<key>.v8`. */
const ANY_CACHE_NAME = /^[a-z0-9._-]+-[0-9a-f]{12}-[0-9a-f]{32}\.v8$/;
/**
 * Cache files kept in the directory at most (0.3 to 1.4 MB each, one per command of an installation). Every
 * installation or checkout path has caches of its own, and one that is removed leaves them behind: past this many,
 * writing a cache removes the ones used longest ago (a cache is marked each time it is read).
 */
export const MAX_CACHE_FILES = 64;
const KEY_AND_SUFFIX_CHARS = 32 + ".v8".length;

type ModuleFunction = (exports: unknown, require: NodeJS.Require, module: { exports: unknown }, filename: string, dirname: string) => void;

export interface LoadOptions {
  /** The cache directory; default a private directory per user under the OS temp dir; null: no cache. */
  cacheDir?: string | null;
}

/** What the last {@link loadCommonJs} of a file did with the cache (for tests and the doctor). */
export type CacheOutcome = "off" | "miss" | "hit" | "rejected";

const outcomes = new Map<string, CacheOutcome>();

/**
 * The files loaded in this process: their cache path, script, the code paths their cache covers (read from its
 * header; a new cache: those of this run) and whether the cache is to be written at exit.
 */
interface Loaded {
  path: string;
  script: Script;
  tags: Set<string>;
  write: boolean;
}
const loaded: Loaded[] = [];
let exitListener = false;

function writeAtExit(entry: Loaded): void {
  entry.write = true;
  if (!exitListener) {
    exitListener = true;
    process.once("exit", writePendingCaches);
  }
}

/** Writes the caches of the files loaded without one, or whose run took a path their cache did not cover (at exit). */
export function writePendingCaches(): void {
  for (const entry of loaded) {
    if (!entry.write) continue;
    entry.write = false;
    writeCache(entry.path, entry.script.createCachedData(), entry.tags);
  }
}

/**
 * A run took code path `tag` (code-path.ts): a cache that was written by runs that never took it lacks the functions
 * compiled on it, which every later run would compile again; so it is written again at exit, with the functions of
 * both, and marked as covering `tag` (once: later runs on that path find it covered).
 */
export function coverLoadedCodePath(tag: string): void {
  if (!CODE_PATH_TAG.test(tag)) return;
  for (const entry of loaded) {
    if (entry.tags.has(tag)) continue;
    entry.tags.add(tag);
    writeAtExit(entry);
  }
}
(globalThis as Record<symbol, unknown>)[CODE_PATH_HOOK] = coverLoadedCodePath;

/**
 * A cache file is `ebcc/1 <tags>\n` (the code paths it covers, comma-separated, possibly none) followed by V8's data.
 * Data without that header is handed to V8 whole, which rejects it (and the cache is written again).
 */
const HEADER = /^ebcc\/1 ((?:[a-z][a-z-]{0,31}(?:,[a-z][a-z-]{0,31})*)?)\n/;
const HEADER_MAX = 512;

function splitCache(file: Buffer): { tags: Set<string>; data: Buffer } {
  const head = HEADER.exec(file.subarray(0, HEADER_MAX).toString("latin1"));
  if (head === null) return { tags: new Set(), data: file };
  return { tags: new Set(head[1] === "" ? [] : head[1].split(",")), data: file.subarray(head[0].length) };
}

export function cacheOutcome(file: string): CacheOutcome | undefined {
  return outcomes.get(file);
}

/**
 * The default cache directory, `<tmpdir>/evidence-bridge-code-cache-<uid>`, created 0700; undefined (no cache)
 * when it is not a real directory owned by this user and closed to others (another user may have made it first).
 */
export function defaultCacheDir(): string | undefined {
  const uid = typeof process.getuid === "function" ? process.getuid() : undefined;
  const dir = join(tmpdir(), `evidence-bridge-code-cache${uid === undefined ? "" : `-${uid}`}`);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") return undefined;
  }
  return privateDir(dir) ? dir : undefined;
}

function privateDir(dir: string): boolean {
  try {
    const st = lstatSync(dir);
    if (!st.isDirectory()) return false;
    if (typeof process.getuid === "function" && (st.uid !== process.getuid() || (st.mode & 0o077) !== 0)) return false;
    return true;
  } catch {
    return false;
  }
}

/**
 * `<file name>-<digest of its path>`: the caches of one installation's file. Writing a new cache removes only that
 * file's older caches, never those of another installation (or checkout) of the bridge for the same user.
 */
function cacheName(file: string): string {
  return `${basename(file, ".js")}-${createHash("sha256").update(file).digest("hex").slice(0, 12)}`;
}

function cacheKey(source: Uint8Array): string {
  return createHash("sha256")
    .update(source)
    .update(`\0${process.version}\0${process.versions.v8}\0${process.arch}\0${process.execArgv.join(" ")}`)
    .digest("hex")
    .slice(0, 32);
}

/** The cache file's bytes, or undefined: only a regular file of ours, read without following links. */
function readCache(path: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size === 0 || st.size > MAX_CACHE_BYTES) return undefined;
    if (typeof process.getuid === "function" && st.uid !== process.getuid()) return undefined;
    const data = readFileSync(fd);
    // Marked as used now: when the directory is over its limit, the caches used longest ago go first.
    try {
      const now = Date.now() / 1000;
      futimesSync(fd, now, now);
    } catch {
      // A cache that cannot be marked is still used.
    }
    return data;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes the cache next to its final name and renames it into place, then removes the caches of earlier versions
 * of the same file (`<name>-<path digest>-<other key>.v8`) and, past {@link MAX_CACHE_FILES} cache files, the ones
 * used longest ago; failures are ignored.
 */
function writeCache(path: string, data: Buffer, tags: ReadonlySet<string>): void {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, Buffer.concat([Buffer.from(`ebcc/1 ${[...tags].sort().join(",")}\n`, "latin1"), data]), { mode: 0o600, flag: "wx" });
    renameSync(temp, path);
    const dir = dirname(path);
    const own = basename(path);
    const prefix = own.slice(0, own.length - KEY_AND_SUFFIX_CHARS);
    const others: { name: string; mtimeMs: number }[] = [];
    for (const name of readdirSync(dir)) {
      if (name === own || !ANY_CACHE_NAME.test(name)) continue;
      if (name.startsWith(prefix) && CACHE_NAME.test(name.slice(prefix.length))) unlinkSync(join(dir, name));
      else others.push({ name, mtimeMs: lstatSync(join(dir, name)).mtimeMs });
    }
    // Over the limit: the caches used longest ago go first (one still in use is written again on its next run).
    others.sort((a, b) => a.mtimeMs - b.mtimeMs);
    for (let i = 0; i < others.length - (MAX_CACHE_FILES - 1); i++) unlinkSync(join(dir, others[i].name));
  } catch {
    try {
      unlinkSync(temp);
    } catch {
      // nothing was written
    }
  }
}

/**
 * Runs a CommonJS file (a bundle: no relative requires of its own, Node built-ins only) and returns its exports,
 * with the code cache when one can be used.
 */
export function loadCommonJs(file: string, opts: LoadOptions = {}): unknown {
  const bytes = readFileSync(file);
  // The bundle is ASCII (esbuild's default charset), which decodes faster as Latin-1; anything else as UTF-8.
  const source = bytes.toString(isAscii(bytes) ? "latin1" : "utf8");
  const dir = opts.cacheDir === undefined ? (process.env[CODE_CACHE_ENV] === "0" ? undefined : defaultCacheDir()) : opts.cacheDir === null ? undefined : privateDir(opts.cacheDir) ? opts.cacheDir : undefined;
  const cachePath = dir === undefined ? undefined : join(dir, `${cacheName(file)}-${cacheKey(bytes)}.v8`);
  const cacheFile = cachePath === undefined ? undefined : readCache(cachePath);
  const cached = cacheFile === undefined ? undefined : splitCache(cacheFile);
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData: cached?.data });
  const outcome: CacheOutcome = cachePath === undefined ? "off" : cached === undefined ? "miss" : script.cachedDataRejected ? "rejected" : "hit";
  outcomes.set(file, outcome);
  if (cachePath !== undefined) {
    const entry: Loaded = { path: cachePath, script, tags: outcome === "hit" ? cached!.tags : new Set(), write: false };
    loaded.push(entry);
    // At exit the cache also holds the functions compiled while the command ran, not only the top level.
    if (outcome !== "hit") writeAtExit(entry);
  }
  const fn = script.runInThisContext() as ModuleFunction;
  const module = { exports: {} as unknown };
  fn.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return module.exports;
}
