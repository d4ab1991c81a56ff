/**
 * `review export --format stix|misp|csv` over a store built from the synthetic example: every STIX object follows
 * the STIX 2.1 rules (stix-rules.ts), every MISP event file has the core format's required fields (misp-rules.ts),
 * the CSV keeps the formula rule, ids are stable across re-exports, no IOC value appears in any byte, the store's
 * sharing ceiling refuses wider markings, and the outward guard refuses an export that would carry a private value.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sharingPolicyPath } from "../../../capsules/exports/sharing-policy.js";
import { expectedHashesCsv, mispEventProblems } from "./misp-rules.js";
import { stixProblems } from "./stix-rules.js";
import { approve, buildCapsule, cli, iocs, MESSAGE_A, MESSAGE_C, removeHomes, tempHome } from "./synthetic-store.js";

afterAll(removeHomes);

const WALLET = "0x52908400098527886E0F7030069857D2E4169EE7";
const HANDLE = "@synthetic_recruiter_demo";
/** Forms of the private values that must not appear anywhere in an export. */
const FORBIDDEN = [WALLET, WALLET.toLowerCase(), WALLET.slice(2).toLowerCase(), HANDLE, HANDLE.slice(1)];

function assertNoValues(bytes: Buffer | string): void {
  const text = bytes.toString().toLowerCase();
  for (const v of FORBIDDEN) expect(text.includes(v.toLowerCase()), `an export carries ${v}`).toBe(false);
}

describe("marked exports of approved leads", () => {
  let home: string;
  let a: string;
  let c: string;
  const out = (name: string) => join(home, "..", `${home.split("/").pop()}-${name}`);

  beforeAll(async () => {
    home = tempHome("exports");
    a = await buildCapsule(home, MESSAGE_A, iocs({ handles: [HANDLE], wallets: [WALLET] }));
    c = await buildCapsule(home, MESSAGE_C, iocs({ handles: ["@third_synthetic_desk"] }));
    await approve(home, a);
    await approve(home, c, "=1+1 looks like a formula, kept as text", false);
  }, 120_000);

  test("STIX: one bundle that follows the STIX 2.1 rules, OASIS TLP 2.0 marking on every object, no IOC value", async () => {
    const file = out("bundle.json");
    const r = await cli(home, ["review", "export", "--format", "stix", "--out", file]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("marked TLP:AMBER+STRICT");
    const bytes = readFileSync(file);
    const bundle = JSON.parse(bytes.toString());
    expect(stixProblems(bundle)).toEqual([]);
    const types = bundle.objects.map((o: { type: string }) => o.type);
    expect(types).toEqual(["marking-definition", "extension-definition", "identity", "grouping", "note", "grouping", "note"]);
    const marking = bundle.objects[0];
    expect(marking.name).toBe("TLP:AMBER+STRICT");
    expect(marking.extensions["extension-definition--60a3c5c5-0d10-413e-aab3-9e08dde9e88d"]).toEqual({ extension_type: "property-extension", tlp_2_0: "amber+strict" });
    for (const o of bundle.objects.slice(1)) expect(o.object_marking_refs).toEqual([marking.id]);
    const identity = bundle.objects[2];
    for (const o of bundle.objects) expect(o.created_by_ref).toBe(identity.id);
    const groupings = bundle.objects.filter((o: { type: string }) => o.type === "grouping");
    expect(groupings.every((g: { context: string }) => g.context === "suspicious-activity")).toBe(true);
    const noteA = bundle.objects.find((o: { type: string; content?: string }) => o.type === "note" && o.content!.includes(a));
    expect(noteA.content).toContain("IOC counts by kind (values withheld): handles=1, wallets=1");
    expect(noteA.content).toContain("hypothesis synthetic-account-rental (laundering_mechanism)");
    expect(noteA.content).toMatch(/APPROVED_FOR_RELEASE by alice \(ed25519:[0-9a-f]{64}\) at \d{4}-\d\d-\d\dT/);
    const gA = groupings.find((g: { id: string }) => noteA.object_refs.includes(g.id));
    expect(gA.external_references).toEqual([
      {
        source_name: "Example Research Desk",
        description: "Synthetic guide to bank-account rental offers (demonstration only) (https://example.org/research/synthetic-mule-guide)",
        external_id: "synthetic-mule-guide",
      },
    ]);
    assertNoValues(bytes);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    // Re-export: same ids, same bytes.
    const again = out("bundle-again.json");
    expect((await cli(home, ["review", "export", "--format", "stix", "--out", again])).code).toBe(0);
    expect(readFileSync(again).equals(bytes)).toBe(true);
  });

  test("STIX with --marking-profile opencti names the level in OpenCTI's extension and still follows the rules; no id is shared between markings", async () => {
    const byMarking: Set<string>[] = [];
    for (const tlp of ["amber+strict", "red"]) {
      const file = out(`opencti-${tlp}.json`);
      const r = await cli(home, ["review", "export", "--format", "stix", "--tlp", tlp, "--marking-profile", "opencti", "--out", file]);
      expect(r.code, r.stderr).toBe(0);
      const bundle = JSON.parse(readFileSync(file, "utf8"));
      expect(stixProblems(bundle)).toEqual([]);
      const marking = bundle.objects[0];
      const name = `TLP:${tlp.toUpperCase()}`;
      expect(marking).toMatchObject({ name, definition_type: "statement", definition: { statement: name } });
      expect(marking.extensions["extension-definition--ea279b3e-5c71-4632-ac08-831c66a786ba"]).toEqual({ extension_type: "property-extension", definition_type: "TLP", definition: name });
      for (const o of bundle.objects.slice(1)) expect(o.object_marking_refs).toEqual([marking.id]);
      byMarking.push(new Set([bundle.id, ...bundle.objects.map((o: { id: string }) => o.id)]));
    }
    // One object per marking: the same lead under TLP:RED and TLP:AMBER+STRICT shares no id.
    expect([...byMarking[0]].filter((id) => byMarking[1].has(id))).toEqual([]);
  });

  test("MISP: a feed directory, unpublished events for the organisation only, counters, TLP and typology tags, the lead as text, hashes.csv", async () => {
    const dir = out("feed");
    const r = await cli(home, ["review", "export", "--format", "misp", "--out", dir]);
    expect(r.code, r.stderr).toBe(0);
    const names = readdirSync(dir).sort();
    expect(names).toContain("manifest.json");
    expect(names).toContain("hashes.csv");
    expect(names).toHaveLength(4);
    const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
    const eventFiles = names.filter((n) => n !== "manifest.json" && n !== "hashes.csv");
    expect(Object.keys(manifest).map((u) => `${u}.json`).sort()).toEqual(eventFiles.sort());
    const docs: unknown[] = [];
    for (const name of names) {
      const bytes = readFileSync(join(dir, name));
      assertNoValues(bytes);
      if (name === "manifest.json" || name === "hashes.csv") continue;
      const doc = JSON.parse(bytes.toString());
      expect(mispEventProblems(doc)).toEqual([]);
      docs.push(doc);
      const e = doc.Event;
      expect(e.published).toBe(false);
      expect(e.distribution).toBe("0");
      expect(e.Tag[0]).toEqual({ name: "tlp:amber+strict", colour: "#FFC000", exportable: true });
      expect(manifest[e.uuid]).toMatchObject({ info: e.info, date: e.date, timestamp: e.timestamp, threat_level_id: e.threat_level_id, analysis: e.analysis });
      expect(e.Note).toBeUndefined();
      const lead = e.Attribute.find((x: { type: string; category: string }) => x.type === "text" && x.category === "Other");
      expect(lead.value).toContain("APPROVED_FOR_RELEASE by alice");
      if (lead.value.includes(a)) {
        const counters = e.Attribute.filter((x: { type: string }) => x.type === "counter").map((x: { value: string; comment: string }) => [x.comment.split(" ")[2], x.value]);
        expect(counters).toEqual([["handles", "1"], ["wallets", "1"]]);
        expect(e.Tag.map((t: { name: string }) => t.name)).toContain('evidence-bridge:typology="synthetic-account-rental"');
      }
    }
    const lines = (text: string) => text.split("\n").sort();
    expect(lines(readFileSync(join(dir, "hashes.csv"), "utf8"))).toEqual(lines(expectedHashesCsv(docs)));
    // The same export again into the same directory is accepted unchanged; a different one is refused.
    expect((await cli(home, ["review", "export", "--format", "misp", "--out", dir])).stdout).toContain("already there, identical");
    const refused = await cli(home, ["review", "export", "--format", "misp", "--distribution", "1", "--out", dir]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/already exists with other content/);
  });

  test("CSV: one row per lead, counts per kind, the formula rule on text cells", async () => {
    const file = out("leads.csv");
    const r = await cli(home, ["review", "export", "--format", "csv", "--tlp", "red", "--out", file]);
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(file, "utf8");
    const rows = text.split("\r\n").filter((l) => l !== "");
    expect(rows).toHaveLength(3);
    expect(rows[0].split(",")).toContain("ioc_wallets");
    const header = rows[0].split(",");
    const rowA = rows.find((l) => l.includes(a))!.split(",");
    expect(rowA[header.indexOf("tlp")]).toBe("TLP:RED");
    expect(rowA[header.indexOf("ioc_wallets")]).toBe("1");
    expect(rowA[header.indexOf("ioc_handles")]).toBe("1");
    const rowC = rows.find((l) => l.includes(c))!;
    expect(rowC).toContain(`,"'=1+1 looks like a formula, kept as text"`);
    assertNoValues(text);
  });

  test("the sharing ceiling: a marking above max_tlp is refused before anything is written; raising it allows it", async () => {
    const file = out("clear.json");
    const r = await cli(home, ["review", "export", "--format", "stix", "--tlp", "clear", "--out", file]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^evidence-bridge: review export: refused: TLP:CLEAR shares more widely than the store's sharing ceiling max_tlp TLP:AMBER\+STRICT/);
    expect(existsSync(file)).toBe(false);
    expect((await cli(home, ["review", "max-tlp"])).stdout).toBe("max_tlp TLP:AMBER+STRICT\n");
    expect((await cli(home, ["review", "max-tlp", "green"])).code).toBe(0);
    expect(statSync(sharingPolicyPath(home)).mode & 0o777).toBe(0o600);
    expect((await cli(home, ["review", "export", "--format", "stix", "--tlp", "clear", "--out", file])).code).toBe(2);
    const ok = await cli(home, ["review", "export", "--format", "stix", "--tlp", "green", "--out", out("green.json")]);
    expect(ok.code, ok.stderr).toBe(0);
    expect((await cli(home, ["review", "max-tlp", "red"])).code).toBe(0);
    expect((await cli(home, ["review", "export", "--format", "csv", "--out", out("strict.csv")])).stderr).toMatch(/ceiling max_tlp TLP:RED; choose --tlp red /);
    expect((await cli(home, ["review", "max-tlp", "purple"])).stderr).toMatch(/LEVEL: expected one of red, amber\+strict, amber, green, clear/);
    writeFileSync(sharingPolicyPath(home), '{"max_tlp":"clear","schema_version":"evidence-bridge-sharing/v1","extra":1}');
    expect((await cli(home, ["review", "export", "--format", "csv", "--out", out("x.csv")])).stderr).toMatch(/unknown member "extra"/);
    expect((await cli(home, ["review", "max-tlp", "amber+strict"])).code).toBe(0);
  });

  test("flag rules: marking flags need a marked format; unknown values are refused naming the flag", async () => {
    expect((await cli(home, ["review", "export", "--tlp", "red", "--out", out("j.jsonl")])).stderr).toMatch(/--tlp applies to --format stix, misp or csv/);
    expect((await cli(home, ["review", "export", "--format", "xml", "--out", out("j.xml")])).stderr).toMatch(/--format: expected one of jsonl, stix, misp, csv/);
    expect((await cli(home, ["review", "export", "--format", "csv", "--marking-profile", "opencti", "--out", out("j.csv")])).stderr).toMatch(/--marking-profile applies to --format stix only/);
    expect((await cli(home, ["review", "export", "--format", "stix", "--tlp", "white", "--out", out("j.json")])).stderr).toMatch(/--tlp: expected one of/);
  });
});

describe("the outward guard on marked exports", () => {
  test("a STIX bundle or MISP feed that would carry a private value (an IOC equal to a pack source URL they cite) is refused; JSONL of the same approval passes", async () => {
    const home = tempHome("exports-guard");
    const url = "https://example.org/research/synthetic-mule-guide";
    const id = await buildCapsule(home, `${MESSAGE_C} Read ${url} first.`, iocs({ urls: [url] }));
    await approve(home, id);
    const jsonl = await cli(home, ["review", "export", "--out", join(home, "x.jsonl")]);
    expect(jsonl.code, jsonl.stderr).toBe(0);
    const file = join(home, "x.json");
    const r = await cli(home, ["review", "export", "--format", "stix", "--out", file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/review export: refused, nothing was exported: leak guard: ioc_value in bundle\.json/);
    expect(r.stderr).not.toContain(url);
    expect(existsSync(file)).toBe(false);
    const feed = await cli(home, ["review", "export", "--format", "misp", "--out", join(home, "feed")]);
    expect(feed.code).toBe(2);
    expect(feed.stderr).toMatch(/leak guard: ioc_value in [0-9a-f-]{36}\.json/);
    expect(existsSync(join(home, "feed"))).toBe(false);
  }, 60_000);
});

describe("marked exports under a four-eyes policy", () => {
  test("two approvals of one candidate make one lead: one grouping and note naming both reviewers, one CSV row", async () => {
    const home = tempHome("exports-four-eyes");
    const id = await buildCapsule(home, MESSAGE_C, iocs({ handles: ["@third_synthetic_desk"] }));
    await cli(home, ["keys", "init", "--reviewer", "alice"]);
    await cli(home, ["keys", "init", "--reviewer", "bob"]);
    expect((await cli(home, ["review", "policy", "--approvals", "2"])).code).toBe(0);
    for (const who of ["alice", "bob"]) {
      const r = await cli(home, ["review", "approve", id, "--note", `checked by ${who}`, "--reviewer", who]);
      expect(r.stderr).toBe("");
    }
    const file = join(home, "..", `${home.split("/").pop()}-four-eyes.json`);
    const r = await cli(home, ["review", "export", "--format", "stix", "--out", file]);
    expect(r.stderr).toBe("");
    const bundle = JSON.parse(readFileSync(file, "utf8"));
    expect(stixProblems(bundle)).toEqual([]);
    const types = bundle.objects.map((o: { type: string }) => o.type);
    expect(types).toEqual(["marking-definition", "extension-definition", "identity", "grouping", "note"]);
    const note = bundle.objects[4];
    expect(note.authors).toEqual(["alice", "bob"]);
    expect(note.content).toMatch(/APPROVED_FOR_RELEASE by alice[^\n]*\nreviewer note: checked by alice\nreview: APPROVED_FOR_RELEASE by bob/);
    const csv = join(home, "..", `${home.split("/").pop()}-four-eyes.csv`);
    expect((await cli(home, ["review", "export", "--format", "csv", "--out", csv])).stderr).toBe("");
    expect(readFileSync(csv, "utf8").trimEnd().split(/\r?\n/)).toHaveLength(2);
  }, 120_000);
});

describe("export ids", () => {
  /** Every id and uuid an export names (STIX object ids, MISP event and attribute uuids), minus the published extension ids. */
  function namedIds(text: string): Set<string> {
    const all = text.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g) ?? [];
    return new Set(all.filter((u) => u !== "60a3c5c5-0d10-413e-aab3-9e08dde9e88d" && u !== "ea279b3e-5c71-4632-ac08-831c66a786ba"));
  }

  test("two stores exporting the same example never share an id; each keeps its own in its sealed store", async () => {
    const seen: Set<string>[] = [];
    for (const tag of ["ids-one", "ids-two"]) {
      const home = tempHome(tag);
      const id = await buildCapsule(home, MESSAGE_C, iocs({ handles: ["@third_synthetic_desk"] }));
      await approve(home, id, "same example, same note", false);
      expect((await cli(home, ["review", "max-tlp", "clear"])).code).toBe(0);
      const ids = new Set<string>();
      for (const args of [
        ["--format", "stix", "--tlp", "red"],
        ["--format", "stix", "--tlp", "clear", "--marking-profile", "opencti"],
        ["--format", "misp", "--tlp", "amber"],
      ]) {
        const target = join(home, `export-${args.join("-")}`);
        const r = await cli(home, ["review", "export", ...args, "--out", target]);
        expect(r.code, r.stderr).toBe(0);
        const files = args[1] === "misp" ? readdirSync(target).map((n) => join(target, n)) : [target];
        for (const f of files) for (const u of namedIds(readFileSync(f, "utf8"))) ids.add(u);
        // Re-exporting keeps the ids: the same bytes (and an existing identical output is accepted).
        const again = await cli(home, ["review", "export", ...args, "--out", target]);
        expect(again.stdout).toContain("already there, identical");
      }
      expect(ids.size).toBeGreaterThan(10);
      // The registry is sealed: none of the ids is readable in it.
      const registry = readFileSync(join(home, "store", "export-ids.sealed"));
      expect([...ids].filter((u) => registry.includes(Buffer.from(u)))).toEqual([]);
      expect(statSync(join(home, "store", "export-ids.sealed")).mode & 0o777).toBe(0o600);
      seen.push(ids);
      if (tag === "ids-two") {
        // A damaged registry refuses the export (never a silent new set of ids); nothing is written.
        const registryPath = join(home, "store", "export-ids.sealed");
        const damaged = Buffer.from(registry);
        damaged[damaged.length - 1] ^= 1;
        writeFileSync(registryPath, damaged);
        const target = join(home, "after-damage.json");
        const r = await cli(home, ["review", "export", "--format", "stix", "--out", target]);
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(/the store's export ids: sealed file failed authentication: store\/export-ids\.sealed.*nothing was exported/);
        expect(existsSync(target)).toBe(false);
      }
    }
    expect([...seen[0]].filter((u) => seen[1].has(u))).toEqual([]);
  }, 120_000);
});
