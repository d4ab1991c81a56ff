/**
 * Reviewed indicator release (issue 32 item 2), through the CLI on a store built from the synthetic example: the
 * four-eyes count (one reviewer's release leaves the value pending, two release it), the per-kind policy, a released
 * wallet as a STIX indicator whose pattern the STIX pattern grammar accepts and as a MISP attribute, an unreleased
 * value of the same capsule nowhere (every format, stdout/stderr, every unsealed file of the data directory), and
 * verify-export refusing a tampered value, a value without its records and a release of a candidate not exported.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { expectedHashesCsv, mispEventProblems } from "../exports/misp-rules.js";
import { patternProblem } from "../exports/pattern-rules.js";
import { stixProblems } from "../exports/stix-rules.js";
import { buildCapsule, cli, iocs, MESSAGE_A, removeHomes, tempHome } from "../exports/synthetic-store.js";

afterAll(removeHomes);

const RELEASED = "0x52908400098527886E0F7030069857D2E4169EE7";
/** A second wallet of the same capsule, never released: it must appear nowhere. */
const PENDING = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
const HANDLE = "@synthetic_recruiter_demo";
const MESSAGE = `${MESSAGE_A} Or to ${PENDING}.`;

/** Every form of the unreleased values a careless export could carry: as written, lower/upper case, unkeyed hashes. */
function forbiddenForms(v: string): string[] {
  const forms = [v, v.toLowerCase(), v.toUpperCase()];
  const hashes = forms.flatMap((f) => ["md5", "sha1", "sha256"].map((h) => createHash(h).update(f, "utf8").digest("hex")));
  return [...forms, ...hashes];
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
}

describe("reviewed indicator release", () => {
  let home: string;
  let id: string;
  const outputs: string[] = [];
  const out = (name: string) => join(home, "..", `${home.split("/").pop()}-${name}`);
  const run = async (args: string[]) => {
    const r = await cli(home, args);
    outputs.push(r.stdout, r.stderr);
    return r;
  };

  beforeAll(async () => {
    home = tempHome("release");
    id = await buildCapsule(home, MESSAGE, iocs({ handles: [HANDLE], wallets: [RELEASED, PENDING] }));
    for (const who of ["alice", "bob"]) expect((await run(["keys", "init", "--reviewer", who])).code).toBe(0);
    expect((await run(["review", "policy", "--approvals", "2"])).code).toBe(0);
  }, 120_000);

  test("a value of a candidate not yet fully approved cannot be released", async () => {
    expect((await run(["review", "approve", id, "--reason", "corroborated", "--note", "checked", "--reviewer", "alice", "--include-typology-matches"])).code).toBe(0);
    const r = await run(["review", "release", id, "--kind", "wallets", "--index", "0", "--reason", "corroborated", "--reviewer", "alice"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/has 1 of 2 approvals of its candidate: values are released only from a fully approved candidate/);
    expect((await run(["review", "approve", id, "--reason", "corroborated", "--note", "checked too", "--reviewer", "bob", "--include-typology-matches"])).code).toBe(0);
  });

  test("the release policy: handles only when the policy names them; bad flags name the rule", async () => {
    const handle = await run(["review", "release", id, "--kind", "handles", "--index", "0", "--reason", "corroborated", "--reviewer", "alice"]);
    expect(handle.code).toBe(2);
    expect(handle.stderr).toMatch(/does not release handles \(it releases channels, urls, wallets\); handles leave only as match tokens/);
    expect((await run(["review", "release", id, "--kind", "wallets", "--index", "2", "--reason", "corroborated", "--reviewer", "alice"])).stderr).toMatch(/--index: capsule [0-9a-f]{64} has 2 wallets values \(index 0 to 1\)/);
    expect((await run(["review", "release", id, "--kind", "wallets", "--index", "0", "--reason", "because", "--reviewer", "alice"])).stderr).toMatch(/--reason: expected one of corroborated, duplicate/);
    expect((await run(["review", "policy", "--release", "wallets,pets"])).stderr).toMatch(/"pets" is not a kind/);
    const policy = await run(["review", "policy"]);
    expect(policy.stdout).toContain("release policy: channels, urls, wallets may be released as values, each by 2 reviewers");
    // An edited policy file is refused, never read as the default.
    expect((await run(["review", "policy", "--release", "wallets,handles"])).stdout).toContain("release policy: handles, wallets");
    const path = join(home, "store", "release-policy.json");
    const edited = readFileSync(path, "utf8").replace('"handles","wallets"', '"emails","handles","wallets"');
    writeFileSync(path, edited);
    expect((await run(["review", "policy"])).stderr).toMatch(/release-policy\.json signature: does not verify/);
    expect((await run(["review", "policy", "--release", "channels,urls,wallets"])).code).toBe(0);
  });

  test("four-eyes: one reviewer's release leaves the value pending and out of every export; the second releases it", async () => {
    const first = await run(["review", "release", id, "--kind", "wallets", "--index", "0", "--reason", "corroborated", "--reviewer", "alice"]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain("pending: 1 of 2 releases (alice)");
    expect((await run(["review", "release", id, "--kind", "wallets", "--index", "0", "--reason", "corroborated", "--reviewer", "alice"])).stderr).toMatch(/alice \(ed25519:[0-9a-f]{64}\) already released wallets #0/);
    const pendingBundle = out("pending.json");
    expect((await run(["review", "export", "--format", "stix", "--out", pendingBundle])).code).toBe(0);
    const bundle = JSON.parse(readFileSync(pendingBundle, "utf8"));
    expect(bundle.objects.filter((o: { type: string }) => o.type === "indicator")).toEqual([]);
    expect(readFileSync(pendingBundle, "utf8")).not.toContain(RELEASED.slice(2, 20));

    const second = await run(["review", "release", id, "--kind", "wallets", "--index", "0", "--reason", "corroborated", "--reviewer", "bob"]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain("RELEASED: 2 of 2 releases (alice, bob)");
    // The pending value gets one release only: it stays pending (and must appear nowhere, below).
    expect((await run(["review", "release", id, "--kind", "wallets", "--index", "1", "--reason", "corroborated", "--reviewer", "alice"])).stdout).toContain("pending: 1 of 2");
  });

  test("a released wallet is a STIX indicator with a pattern of the STIX grammar, a MISP attribute, a CSV row and a JSONL release line", async () => {
    const stixFile = out("released.json");
    const r = await run(["review", "export", "--format", "stix", "--out", stixFile]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/released: wallets #0 of capsule [0-9a-f]{64} by 2 reviewers/);
    const bundle = JSON.parse(readFileSync(stixFile, "utf8"));
    expect(stixProblems(bundle)).toEqual([]);
    const indicators = bundle.objects.filter((o: { type: string }) => o.type === "indicator");
    expect(indicators).toHaveLength(1);
    expect(indicators[0].pattern).toBe(`[cryptocurrency-wallet:value = '${RELEASED}']`);
    expect(patternProblem(indicators[0].pattern)).toBeUndefined();
    expect(indicators[0].description).toMatch(/released by 2 reviewers \(alice, bob; reason corroborated\)/);
    const grouping = bundle.objects.find((o: { type: string }) => o.type === "grouping");
    expect(grouping.object_refs).toContain(indicators[0].id);
    expect(grouping.modified >= grouping.created).toBe(true);

    const feed = out("feed");
    expect((await run(["review", "export", "--format", "misp", "--out", feed])).code).toBe(0);
    const names = readdirSync(feed).filter((n) => n !== "manifest.json" && n !== "hashes.csv");
    const doc = JSON.parse(readFileSync(join(feed, names[0]), "utf8"));
    expect(mispEventProblems(doc, [RELEASED])).toEqual([]);
    const attr = doc.Event.Attribute.find((a: { value: string }) => a.value === RELEASED);
    expect(attr).toMatchObject({ type: "text", category: "Financial fraud", to_ids: true });
    expect(readFileSync(join(feed, "hashes.csv"), "utf8")).toBe(expectedHashesCsv([doc]));

    const csv = out("leads.csv");
    expect((await run(["review", "export", "--format", "csv", "--out", csv])).code).toBe(0);
    const rows = readFileSync(csv, "utf8").split("\r\n").filter((l) => l !== "");
    expect(rows).toHaveLength(3);
    expect(rows[2], rows[2]).toMatch(new RegExp(`^TLP:AMBER\\+STRICT,${id},[0-9a-f]{64},+wallets,${RELEASED},"released by 2 reviewers \\(alice, bob; reason corroborated\\)"$`));

    const jsonl = out("export.jsonl");
    const exported = await run(["review", "export", "--out", jsonl]);
    expect(exported.code, exported.stderr).toBe(0);
    const lines = readFileSync(jsonl, "utf8").trimEnd().split("\n");
    const release = lines.map((l) => JSON.parse(l)).filter((l) => l.release !== undefined);
    expect(release).toHaveLength(1);
    expect(release[0].release).toMatchObject({ kind: "wallets", index: 0, value: RELEASED, capsule_sha256: id });
    expect(release[0].release.records).toHaveLength(2);
  });

  test("an unreleased value of the same capsule appears nowhere: no format, no output, no unsealed file", async () => {
    const leaks: string[] = [];
    const texts: [string, string][] = [["stdout/stderr", outputs.join("\n")]];
    for (const f of files(join(home, ".."))) {
      if (!f.includes(home.split("/").pop()!) || f.endsWith(".sealed") || f.endsWith(".key")) continue;
      if (!statSync(f).isFile()) continue;
      texts.push([f, readFileSync(f, "latin1")]);
    }
    expect(texts.length).toBeGreaterThan(10);
    for (const [name, text] of texts) {
      const lower = text.toLowerCase();
      for (const form of [...forbiddenForms(PENDING), ...forbiddenForms(HANDLE)]) if (lower.includes(form.toLowerCase())) leaks.push(`${name}: ${form.slice(0, 6)}…`);
    }
    expect(leaks).toEqual([]);
    // The search can fail: the released value is there, and the register holds records without values.
    expect(texts.some(([, t]) => t.includes(RELEASED))).toBe(true);
    const register = readFileSync(join(home, "review", "releases.jsonl"), "utf8");
    expect(register.trimEnd().split("\n")).toHaveLength(3);
    for (const form of forbiddenForms(RELEASED)) expect(register.toLowerCase()).not.toContain(form.toLowerCase());
  });

  test("verify-export: the release verifies with pinned keys; a tampered value, a value without its records and a foreign release refuse the export", async () => {
    const jsonl = out("export.jsonl");
    const bytes = readFileSync(jsonl, "utf8");
    const keys = JSON.parse((await cli(home, ["review", "verify-export", jsonl, "--json"])).stdout).keys.map((k: { fingerprint: string }) => k.fingerprint);
    const installation = (await cli(home, ["keys", "show"])).stdout.match(/ed25519:[0-9a-f]{64}/)![0];
    const trust = [...keys, installation].join(",");
    const ok = await cli(home, ["review", "verify-export", jsonl, "--trust", trust]);
    expect(ok.stdout).toMatch(/ok: released wallets #0 of capsule [0-9a-f]{64} candidate [0-9a-f]{12}, by 2 reviewers \(alice, bob\)/);
    expect(ok.stdout).toMatch(/1 of 1 released value verified/);
    expect(ok.code).toBe(0);

    const variant = async (name: string, text: string) => {
      const f = out(name);
      writeFileSync(f, text);
      return cli(home, ["review", "verify-export", f, "--trust", trust]);
    };
    const tampered = await variant("tampered.jsonl", bytes.replace(`"value":"${RELEASED}"`, `"value":"${RELEASED.slice(0, -1)}8"`));
    expect(tampered.code).toBe(1);
    expect(tampered.stdout).toMatch(/FAILED: release: release\.records\[0\]: the record does not commit to this value/);
    const lines = bytes.trimEnd().split("\n");
    const at = lines.findIndex((l) => l.startsWith('{"release"'));
    const stripped = JSON.parse(lines[at]);
    stripped.release.records = [];
    const canonical = (v: unknown): string => (Array.isArray(v) ? `[${v.map(canonical).join(",")}]` : typeof v === "object" && v !== null ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(",")}}` : JSON.stringify(v));
    const noRecords = await variant("no-records.jsonl", [...lines.slice(0, at), canonical(stripped), ...lines.slice(at + 1)].join("\n") + "\n");
    expect(noRecords.code).toBe(1);
    expect(noRecords.stdout).toMatch(/the value has no signed release/);
    // The release line without the approved candidate's lines: not an approved candidate of this export.
    const foreign = await variant("foreign.jsonl", [...lines.slice(at)].join("\n") + "\n");
    expect(foreign.code).toBe(1);
    expect(foreign.stdout).toMatch(/not an approved candidate of this export/);
  });
});
