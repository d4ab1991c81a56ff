/** Shared helpers for the regional index tests: fixture access and small builders. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "../../helpers/shared.js";
import { buildSyntheticIndex, withDigest } from "../../../published/regional/synthetic.js";
import type { Region } from "../../../published/regional/constants.js";

export const fixturesDir = join(repoRoot, "test", "fixtures", "regional");

export function fixture(rel: string): Buffer {
  return readFileSync(join(fixturesDir, rel));
}

export type Obj = Record<string, any>;

/** A fresh synthetic index as a plain object (deep copy each time). */
export function index(region: Region = "gwadar", events = 6): Obj {
  return buildSyntheticIndex({ region, events }) as Obj;
}

/** Applies `change` to a fresh index and recomputes content_sha256; returns UTF-8 JSON bytes. */
export function changed(change: (o: Obj) => void, region: Region = "gwadar", events = 6): Uint8Array {
  const o = index(region, events);
  change(o);
  return bytes(withDigest(o));
}

export function bytes(o: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(o));
}
