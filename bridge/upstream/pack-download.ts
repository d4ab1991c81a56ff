/**
 * Downloads the intelligence pack from `{base_url}/integrations/<name>/intelligence-pack-v1.json` (product.md §4)
 * with the published-files client (same timeout, retry and size rules), capped at the pack's 1 MiB limit. The
 * caller checks the digest and installs it; nothing here writes to disk.
 */
import { MAX_PACK_BYTES } from "../../published/pack/load.js";
import { Agents } from "./http-transport.js";
import { PublishedFiles } from "./published-files.js";

export const PACK_NAME_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$/;

export type PackDownload = { ok: true; url: string; bytes: Buffer } | { ok: false; url: string | undefined; reason: string };

export async function downloadPack(opts: { baseUrl: string; name: string; timeoutMs: number }): Promise<PackDownload> {
  if (!PACK_NAME_PATTERN.test(opts.name) || opts.name === "." || opts.name === "..") {
    return { ok: false, url: undefined, reason: "the pack name must match ^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$" };
  }
  const agents = new Agents();
  try {
    const files = new PublishedFiles({ baseUrl: opts.baseUrl, timeoutMs: opts.timeoutMs, ttlMs: 0, maxBytes: MAX_PACK_BYTES }, agents);
    const got = await files.fetch(`integrations/${opts.name}/intelligence-pack-v1.json`);
    if (!got.ok) return { ok: false, url: got.url, reason: got.reason };
    return { ok: true, url: got.url, bytes: got.bytes };
  } finally {
    agents.destroy();
  }
}
