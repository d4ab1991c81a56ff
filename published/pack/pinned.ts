/**
 * The intelligence pack this release trusts without being told a digest (product.md §4): the publisher's current
 * published pack, pinned by version, SHA-256 and path under the published files base URL. `pack fetch` with no
 * arguments and the MCP server's first need install exactly these bytes; a server file with another digest is
 * refused, naming both. Facts only: the digest of the file the publisher serves.
 */

export interface PackPin {
  version: string;
  /** SHA-256 of the file's bytes, lowercase hex. */
  sha256: string;
  /** Path of the file under the published files base URL (no leading slash). */
  path: string;
}

export const PINNED_PACK: Readonly<PackPin> = Object.freeze({
  version: "2026-08-08.2",
  sha256: "c13bfa22576398c575d8b5a3561ed89c060c78a62852282e62f1716e98b28c01",
  path: "integrations/scamshield/intelligence-pack-v1.json",
});

/** The one command that installs the pinned pack, as refusals name it. */
export const PACK_FETCH_COMMAND = "evidence-bridge pack fetch";
