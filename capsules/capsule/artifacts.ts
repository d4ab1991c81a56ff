/**
 * Artifacts stage (capsule-v1 §8.4): obtain each artifact's exact bytes (strict inline base64, or a clean relative
 * path under an explicit artifact root), charge them to the 16 MiB budget, and compare SHA-256 and size. Only
 * artifacts that verify become usable downstream. Bytes are inert: nothing is interpreted or executed here.
 */
import { closeSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import { openRegularFile, readUpTo, SafeReadError } from "../../src/crypto/safe-read.js";
import { sha256Hex } from "../../src/hash.js";
import { codePointLength } from "../../src/json/value.js";
import { fsErrorDetail } from "./fs-detail.js";
import { Base64Error, decodeBase64Strict } from "./base64.js";
import type { Artifact } from "./model.js";
import type { ArtifactItem, VerificationReport } from "./report.js";
import { ResolvedArtifacts } from "./resolved.js";
import type { JsonValue } from "../../src/json/value.js";
import { ARTIFACT_MAX_BYTES, ARTIFACTS_TOTAL_MAX_BYTES, INLINE_DATA_MAX_CHARS } from "./limits.js";

/** An artifact that cannot be obtained; `message` is the exact problem text of capsule-v1 §8.4. */
export class ArtifactProblem extends Error {}

/** §8.4.1: bytes of an inline artifact. */
function inlineBytes(data: string): Uint8Array {
  if (data.length > INLINE_DATA_MAX_CHARS && codePointLength(data) > INLINE_DATA_MAX_CHARS) {
    throw new ArtifactProblem("inline artifact exceeds the v1 encoded-size limit");
  }
  let bytes: Uint8Array;
  try {
    bytes = decodeBase64Strict(data);
  } catch (e) {
    if (e instanceof Base64Error) throw new ArtifactProblem(`invalid base64: ${e.message}`);
    throw e;
  }
  if (bytes.length > ARTIFACT_MAX_BYTES) throw new ArtifactProblem("inline artifact exceeds the v1 decoded-size limit");
  return bytes;
}

/** §8.4.2 steps 2–3: the components of a clean, portable, relative path. */
export function cleanPathComponents(path: string): string[] {
  if (path.includes("\\")) throw new ArtifactProblem("artifact path must use portable '/' separators");
  const parts = path.split("/");
  if (path.startsWith("/") || path.includes("\0") || parts.some((c) => c === "" || c === "." || c === "..")) {
    throw new ArtifactProblem("artifact path must be a clean relative path inside the artifact root");
  }
  return parts;
}

/** Resolves the artifact root once per verification (lazily: only path artifacts need it). */
class ArtifactRoot {
  private real?: { path: string } | { error: string };
  constructor(readonly root: string | undefined) {}

  resolve(): string {
    if (this.real === undefined) {
      try {
        this.real = { path: realpathSync(this.root!) };
      } catch (e) {
        this.real = { error: fsErrorDetail(e) };
      }
    }
    if ("error" in this.real) throw new ArtifactProblem(`artifact path cannot be resolved safely: ${this.real.error}`);
    return this.real.path;
  }
}

/** §8.4.2: bytes of a path artifact under the artifact root. */
function pathBytes(path: string, root: ArtifactRoot): Uint8Array {
  if (root.root === undefined) throw new ArtifactProblem("path artifact requires an explicit artifact root");
  const components = cleanPathComponents(path);
  const realRoot = root.resolve();
  let target: string;
  try {
    target = realpathSync(join(realRoot, ...components));
  } catch (e) {
    throw new ArtifactProblem(`artifact path cannot be resolved safely: ${fsErrorDetail(e)}`);
  }
  const rel = relative(realRoot, target);
  if (rel === ".." || rel.startsWith("../") || isAbsolute(rel)) {
    throw new ArtifactProblem("artifact path escapes the artifact root");
  }
  let isFile: boolean;
  try {
    isFile = statSync(target).isFile();
  } catch (e) {
    throw new ArtifactProblem(`artifact path cannot be resolved safely: ${fsErrorDetail(e)}`);
  }
  if (!isFile) throw new ArtifactProblem("artifact path is not a regular file");
  return readBounded(target);
}

/**
 * Reads a clean relative `path` beneath `rootDir` with every §8.4.2 rule (for builders that bind files from a
 * repository root). Throws {@link ArtifactProblem}.
 */
export function readArtifactPath(rootDir: string, path: string): Uint8Array {
  return pathBytes(path, new ArtifactRoot(rootDir));
}

/**
 * Reads the artifact through the safe reader (src/crypto/safe-read.ts): a FIFO or device swapped in after the check is
 * refused at open (O_NONBLOCK + fstat), never waited on; more than 8 MiB is refused from the file's size.
 */
function readBounded(target: string): Uint8Array {
  let opened: { fd: number; size: number };
  try {
    opened = openRegularFile(target, "artifact path");
  } catch (e) {
    if (e instanceof SafeReadError && (e.code === "link" || e.code === "not-regular")) throw new ArtifactProblem("artifact path is not a regular file");
    if (e instanceof SafeReadError) throw new ArtifactProblem(`artifact path cannot be read: ${e.errno ?? e.detail}`);
    throw e;
  }
  try {
    if (opened.size > ARTIFACT_MAX_BYTES) throw new ArtifactProblem("path artifact exceeds the v1 byte limit");
    try {
      return readUpTo(opened.fd, opened.size);
    } catch (e) {
      throw new ArtifactProblem(`artifact path cannot be read: ${fsErrorDetail(e)}`);
    }
  } finally {
    closeSync(opened.fd);
  }
}

export interface ArtifactsResult {
  section: VerificationReport["artifacts"];
  resolved: ResolvedArtifacts;
}

/**
 * Runs the artifacts stage over the validated artifacts. `parsedDocuments` (VerifyOptions): values the caller parsed
 * strictly from bytes with a given SHA-256; an artifact whose verified bytes have that digest is read as that value.
 */
export function artifactsStage(artifacts: Artifact[], artifactRoot?: string, parsedDocuments?: ReadonlyMap<string, JsonValue>): ArtifactsResult {
  const root = new ArtifactRoot(artifactRoot);
  const items: ArtifactItem[] = [];
  const resolved = new Map<string, Uint8Array>();
  const parsed = new Map<string, JsonValue>();
  let total = 0;
  for (const artifact of artifacts) {
    const item: ArtifactItem = { id: artifact.id, status: "failed", problems: [] };
    items.push(item);
    let bytes: Uint8Array;
    try {
      const loc = artifact.location;
      bytes = loc.type === "inline" ? inlineBytes(loc.data) : pathBytes(loc.path, root);
    } catch (e) {
      if (!(e instanceof ArtifactProblem)) throw e;
      item.problems.push(e.message);
      continue;
    }
    total += bytes.length;
    if (total > ARTIFACTS_TOTAL_MAX_BYTES) {
      item.problems.push("total verified artifact bytes exceed the v1 limit");
      return { section: { status: "failed", items }, resolved: new ResolvedArtifacts() };
    }
    item.actual_sha256 = sha256Hex(bytes);
    if (item.actual_sha256 !== artifact.sha256) item.problems.push("sha256 mismatch");
    if (bytes.length !== artifact.size) item.problems.push("size mismatch");
    if (item.problems.length === 0) {
      item.status = "verified";
      resolved.set(artifact.id, bytes);
      const known = parsedDocuments?.get(item.actual_sha256);
      if (known !== undefined) parsed.set(artifact.id, known);
    }
  }
  const status = items.every((x) => x.status === "verified") ? "verified" : "failed";
  return { section: { status, items }, resolved: new ResolvedArtifacts(resolved, parsed) };
}
