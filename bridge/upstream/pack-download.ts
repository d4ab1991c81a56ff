/**
 * Downloads the intelligence pack from the published files (product.md §4) with the published-files client (same
 * timeout, retry and size rules), capped at the pack's 1 MiB limit: either the release's pinned pack
 * (published/pack/pinned.ts), checked against its pinned digest, or `{base_url}/integrations/<name>/…` for a
 * digest the user was given. The caller installs it; nothing here writes to disk.
 */
import { sha256Hex } from "../../src/hash.js";
import { MAX_PACK_BYTES } from "../../published/pack/load.js";
import { PINNED_PACK, type PackPin } from "../../published/pack/pinned.js";
import { Agents } from "./http-transport.js";
import { PublishedFiles } from "./published-files.js";

export const PACK_NAME_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$/;

export type PackDownload = { ok: true; url: string; bytes: Buffer } | { ok: false; url: string | undefined; reason: string };

async function download(baseUrl: string, path: string, timeoutMs: number): Promise<PackDownload> {
  const agents = new Agents();
  try {
    const files = new PublishedFiles({ baseUrl, timeoutMs, ttlMs: 0, maxBytes: MAX_PACK_BYTES }, agents);
    const got = await files.fetch(path);
    if (!got.ok) return { ok: false, url: got.url, reason: got.reason };
    return { ok: true, url: got.url, bytes: got.bytes };
  } finally {
    agents.destroy();
  }
}

export async function downloadPack(opts: { baseUrl: string; name: string; timeoutMs: number }): Promise<PackDownload> {
  if (!PACK_NAME_PATTERN.test(opts.name) || opts.name === "." || opts.name === "..") {
    return { ok: false, url: undefined, reason: "the pack name must match ^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$" };
  }
  return download(opts.baseUrl, `integrations/${opts.name}/intelligence-pack-v1.json`, opts.timeoutMs);
}

/**
 * The pinned pack: downloaded from `{base_url}/<pin.path>` and returned only when its SHA-256 is the pinned one.
 * A different file is refused naming both digests (the publisher replaced the pack, or something in between
 * changed it): a newer release pins the newer pack. `pin` is the release's own unless a test names another.
 */
export async function downloadPinnedPack(opts: { baseUrl: string; timeoutMs: number; pin?: PackPin }): Promise<PackDownload> {
  const pin = opts.pin ?? PINNED_PACK;
  const got = await download(opts.baseUrl, pin.path, opts.timeoutMs);
  if (!got.ok) return got;
  const have = sha256Hex(got.bytes);
  if (have !== pin.sha256) {
    return {
      ok: false,
      url: got.url,
      reason: `the server's file has sha256 ${have}, but this release pins pack ${pin.version} with sha256 ${pin.sha256} (the published pack changed: install a newer evidence-bridge, or 'pack fetch --sha256 HEX --name NAME' with a digest you trust)`,
    };
  }
  return got;
}
