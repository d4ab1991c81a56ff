/**
 * Synthetic capsules for store tests, built with the project's `buildCapsule` from assessment-shaped content
 * that carries canary values: if any plaintext reached the disk, a byte search for the canaries finds it.
 */
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { buildCapsule, serializeCapsule } from "../../../capsules/capsule/build.js";
import { canonicalBytes } from "../../../src/json/canonical.js";
import { sha256Hex } from "../../../src/hash.js";

/** Canary values: an IOC, a pseudonym-like value and a message; fixed so child processes share them. */
export const CANARY = {
  handle: "@canary_handle_q7x2vz",
  wallet: "TCanaryWalletQ7X2VZ9d8e7f6a5b4c3d2e1",
  email: "canary.q7x2vz@example.invalid",
  message: "CANARY MESSAGE q7x2vz: rent your bank account for 5000 per week, contact @canary_handle_q7x2vz",
} as const;

/** Strings that appear in every plaintext capsule file (outside base64). */
export const PLAINTEXT_MARKERS = ["palimpsest-evidence-capsule/v1", "application/vnd.scamshield.provenance+json", CANARY.handle];

export interface SyntheticCapsule {
  id: string;
  /** Canonical file bytes (what `capsule build` prints and stores). */
  bytes: Uint8Array;
  /** The same capsule serialized pretty (capsule-v1 §11.2): same id, different bytes. */
  prettyBytes: Uint8Array;
  messageSha256: string;
  message: string;
}

export function syntheticCapsule(i: number, tier: "CLEAN" | "WATCH" | "LIKELY_SCAM" | "CONFIRMED_PATTERN" = "LIKELY_SCAM"): SyntheticCapsule {
  const message = `${CANARY.message} #${i}`;
  const messageSha256 = sha256Hex(message);
  const created = new Date(Date.UTC(2026, 7, 20, 9, 0, 0) + i * 1000).toISOString().replace(/\.000Z$/, "Z");
  const assessment = {
    schema_version: "scamshield-provenance/v1",
    assessment_id: sha256Hex(`assessment ${i}`).slice(0, 24),
    created_at: created,
    message_sha256: messageSha256,
    detector: {
      tier,
      score: 40,
      carrier_score: 40,
      families: ["ACCOUNT", "NOT_A_FAMILY"],
      signals: [],
      iocs: { handles: [CANARY.handle], phones: [], channels: [], wallets: [CANARY.wallet], emails: [CANARY.email, `${i}.${CANARY.email}`], urls: [] },
    },
    threat_assessment: { tier: "WATCH", families: ["FRAUD"] },
    collection: { source_pseudonym: "4080784d2be288390fbe20ac" },
  };
  const artifactBytes = Buffer.from(JSON.stringify(assessment));
  const content = {
    spec_version: "palimpsest-evidence-capsule/v1",
    canonicalization: "palimpsest-json-sorted-utf8-v1",
    created_at: created,
    producer: { name: "store-test", software: "synthetic/v1" },
    subject: { type: "analytical-lead", id: `synthetic:${i}`, title: `Synthetic lead ${i} about ${CANARY.handle}` },
    artifacts: [
      {
        id: "assessment",
        sha256: sha256Hex(artifactBytes),
        size: artifactBytes.length,
        media_type: "application/vnd.scamshield.provenance+json",
        source: { uri: `urn:synthetic:${i}`, captured_at: created, collector: "store-test" },
        untrusted: true,
        location: { type: "inline", encoding: "base64", data: artifactBytes.toString("base64") },
      },
    ],
    claims: [
      {
        id: "identity",
        type: "provenance",
        statement: `Binds message SHA-256 ${messageSha256}.`,
        artifact_refs: ["assessment"],
        derivation_refs: [],
        binding_refs: [],
        evidence_level: "direct",
        limitations: [],
      },
    ],
    derivations: [],
    intents: [],
    bindings: [],
  };
  const capsule = buildCapsule(content);
  const canonical = canonicalBytes({ attestations: [], content: capsule.content, content_sha256: capsule.content_sha256 }, "capsule");
  const bytes = Buffer.concat([Buffer.from(canonical), Buffer.from("\n")]);
  return {
    id: capsule.content_sha256,
    bytes,
    get prettyBytes() {
      return Buffer.from(serializeCapsule(capsule));
    },
    messageSha256,
    message,
  };
}

/** Every regular file under `dir`, recursively. */
export function allFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) out.push(...allFiles(p));
    else out.push(p);
  }
  return out;
}

/** Files under `dir` containing any of `needles` (byte search), with the needle found. */
export function filesContaining(dir: string, needles: readonly string[]): string[] {
  const hits: string[] = [];
  for (const file of allFiles(dir)) {
    const bytes = readFileSync(file);
    for (const n of needles) if (bytes.includes(Buffer.from(n))) hits.push(`${file}: ${n}`);
  }
  return hits;
}

/** Path → mode and content hash of every file and directory under `dir`: equal snapshots mean nothing changed. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const name of names) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) {
        out[p] = `dir ${(st.mode & 0o777).toString(8)}`;
        walk(p);
      } else out[p] = `file ${(st.mode & 0o777).toString(8)} ${sha256Hex(readFileSync(p))}`;
    }
  };
  try {
    out[dir] = `dir ${(statSync(dir).mode & 0o777).toString(8)}`;
  } catch {
    return out;
  }
  walk(dir);
  return out;
}

export function tempHome(tag: string): string {
  return join(process.env.TMPDIR ?? "/tmp", `eb-store-${tag}-${process.pid}-${randomBytes(4).toString("hex")}`);
}
