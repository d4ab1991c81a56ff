/**
 * Units of the export formats: UUIDv5 against the RFC 4122 / Python documentation vector, the TLP order and
 * ceiling, the marking levels of both profiles and the MISP taxonomy tags, the outward-guard wrapper (text and
 * escaped JSON), and the STIX and pattern rule checkers themselves (each rule must be able to fail).
 */
import { describe, expect, test } from "vitest";
import { OutwardGuard } from "../../../capsules/guard/outward-guard.js";
import { assessmentPrivateValues } from "../../../capsules/guard/private-values.js";
import { guardExport } from "../../../capsules/exports/guard-export.js";
import { ceilingProblem, markingLevelProperties, mispTlpTag, TLP_LEVELS } from "../../../capsules/exports/tlp.js";
import { uuidV5, uuidVersion } from "../../../capsules/exports/uuid5.js";
import { parseAssessment } from "../../../capsules/assessment/parse-assessment.js";
import { MISP_TLP_TAXONOMY } from "./misp-rules.js";
import { patternProblem } from "./pattern-rules.js";
import { stixProblems } from "./stix-rules.js";
import { iocs, MESSAGE_A, syntheticAssessment } from "./synthetic-store.js";

const DNS_NAMESPACE = "6ba7b810-9dad-11d1-80b4-00c04fd430c8";

describe("uuidV5", () => {
  test("matches the known vector uuid5(NAMESPACE_DNS, 'python.org')", () => {
    expect(uuidV5(DNS_NAMESPACE, "python.org")).toBe("886313e1-3b8a-5372-9b90-0c9aee199e5d");
  });
  test("is version 5, RFC 4122 variant, stable, and differs by name", () => {
    const u = uuidV5(DNS_NAMESPACE, "a");
    expect(uuidVersion(u)).toBe(5);
    expect("89ab").toContain(u[19]);
    expect(uuidV5(DNS_NAMESPACE, "a")).toBe(u);
    expect(uuidV5(DNS_NAMESPACE, "b")).not.toBe(u);
  });
});

describe("TLP", () => {
  test("order from narrowest to widest; only wider markings are above the ceiling", () => {
    expect(TLP_LEVELS).toEqual(["red", "amber+strict", "amber", "green", "clear"]);
    expect(ceilingProblem("red", "amber+strict")).toBeUndefined();
    expect(ceilingProblem("amber+strict", "amber+strict")).toBeUndefined();
    expect(ceilingProblem("amber", "amber+strict")).toMatch(/shares more widely/);
    expect(ceilingProblem("clear", "green")).toMatch(/shares more widely/);
    expect(ceilingProblem("green", "clear")).toBeUndefined();
  });
  test("the oasis profile names the level with the TLP 2.0 extension, the opencti profile with OpenCTI's extension", () => {
    expect(markingLevelProperties("amber+strict", "oasis")).toEqual({
      properties: { name: "TLP:AMBER+STRICT" },
      extensions: { "extension-definition--60a3c5c5-0d10-413e-aab3-9e08dde9e88d": { extension_type: "property-extension", tlp_2_0: "amber+strict" } },
    });
    expect(markingLevelProperties("clear", "opencti")).toEqual({
      properties: { name: "TLP:CLEAR", definition_type: "statement", definition: { statement: "TLP:CLEAR" } },
      extensions: { "extension-definition--ea279b3e-5c71-4632-ac08-831c66a786ba": { extension_type: "property-extension", definition_type: "TLP", definition: "TLP:CLEAR" } },
    });
  });
  test("MISP tags are the tlp taxonomy's (version 10) with its colours", () => {
    for (const level of TLP_LEVELS) {
      const tag = mispTlpTag(level);
      expect(MISP_TLP_TAXONOMY[tag.name], level).toBe(tag.colour);
    }
    expect(Object.keys(MISP_TLP_TAXONOMY)).toHaveLength(TLP_LEVELS.length);
  });
});

describe("the STIX rule checker", () => {
  test("reports broken rules", () => {
    const bad = {
      type: "bundle",
      spec_version: "2.1",
      id: "bundle--nope",
      objects: [
        { type: "note", spec_version: "2.0", id: "note--6ba7b810-9dad-41d1-80b4-00c04fd430c8", created: "2026-01-01T00:00:00Z", modified: "2026-01-01T00:00:00.000Z", object_refs: [] },
        { type: "indicator", spec_version: "2.1", id: "grouping--6ba7b810-9dad-41d1-80b4-00c04fd430c8", created: "2026-01-01T00:00:00.000Z", modified: "2026-01-01T00:00:00.000Z", object_marking_refs: ["marking-definition--x"], pattern: "[x:y = 1]" },
      ],
    };
    const problems = stixProblems(bad).join("\n");
    for (const rule of ["bundle.spec_version", "bundle.id", 'objects[0].spec_version', "objects[0].created", "objects[0].content: required", "objects[0].object_refs", "objects[0].object_marking_refs", "objects[0].created_by_ref", "objects[1].id", "objects[1].pattern"]) {
      expect(problems).toContain(rule);
    }
  });
  test("reports what the OASIS validator refuses under --strict --interop and stix2 without allow_custom", () => {
    const T = "2026-01-01T00:00:00.000Z";
    const id = (t: string, v = "4") => `${t}--6ba7b810-9dad-${v}1d1-80b4-00c04fd430c8`;
    const ok = () => ({
      type: "bundle",
      id: id("bundle"),
      objects: [
        { type: "marking-definition", spec_version: "2.1", id: id("marking-definition"), created_by_ref: id("identity"), created: T, name: "TLP:RED", extensions: { [id("extension-definition")]: { extension_type: "toplevel-property-extension" } }, modified: T },
        { type: "extension-definition", spec_version: "2.1", id: id("extension-definition"), created_by_ref: id("identity"), created: T, modified: T, name: "m", schema: "s", version: "1.0.0", extension_types: ["toplevel-property-extension"], extension_properties: ["modified"], object_marking_refs: [id("marking-definition")] },
        { type: "identity", spec_version: "2.1", id: id("identity"), created_by_ref: id("identity"), created: T, modified: T, name: "i", identity_class: "system", object_marking_refs: [id("marking-definition")] },
        { type: "grouping", spec_version: "2.1", id: id("grouping"), created_by_ref: id("identity"), created: T, modified: T, context: "suspicious-activity", object_refs: [id("identity")], object_marking_refs: [id("marking-definition")], external_references: [{ source_name: "s", external_id: "x" }] },
      ] as Record<string, any>[],
    });
    expect(stixProblems(ok())).toEqual([]);
    const broken: [string, (b: ReturnType<typeof ok>) => void][] = [
      ["UUIDv5 id (S2)", (b) => (b.objects[3].id = id("grouping", "5"))],
      ["no modified (S2)", (b) => delete b.objects[0].modified],
      ["created_by_ref: the identity has no created_by_ref itself (S3)", (b) => delete b.objects[2].created_by_ref],
      ["created_by_ref: expected an identity (S3)", (b) => delete b.objects[3].created_by_ref],
      ["modified: not a property (S5)", (b) => (b.objects[0].extensions = {})],
      ["x_opencti_definition: not a property (S5)", (b) => (b.objects[0].x_opencti_definition = "TLP:RED")],
      ['definition_type: "tlp" (S6)', (b) => Object.assign(b.objects[0], { definition_type: "tlp", definition: { tlp: "red" } })],
      ["extension_properties (S7)", (b) => delete b.objects[1].extension_properties],
      ["url without hashes (S8)", (b) => (b.objects[3].external_references[0].url = "https://example.org/")],
      ["context (S9)", (b) => (b.objects[3].context = "leads")],
      ["appears twice (S11)", (b) => b.objects.push({ ...b.objects[3] })],
    ];
    for (const [what, breakIt] of broken) {
      const b = ok();
      breakIt(b);
      expect(stixProblems(b), what).not.toEqual([]);
      expect(stixProblems(b).join("\n"), what).toContain(`(${what.match(/\((S\d+)\)/)![1]})`);
    }
  });
  test("the pattern rules accept the patterns released indicators use and refuse others", () => {
    for (const p of ["[url:value = 'https://x.example/a?b=1']", "[user-account:account_login = 'o\\'brien' AND user-account:account_type = 'telegram']", "[cryptocurrency-wallet:value = '0xab']"]) {
      expect(patternProblem(p), p).toBeUndefined();
    }
    for (const p of ["url:value = 'x'", "[url:value = 'x]", "[URL:value = 'x']", "[url:value = 'a\\x']", "[url:value == 'x']", "[url:value = 'x' FOLLOWEDBY url:value = 'y']"]) {
      expect(patternProblem(p), p).toBeDefined();
    }
  });
});

describe("guardExport", () => {
  const secrets = new OutwardGuard(assessmentPrivateValues(parseAssessment(syntheticAssessment(MESSAGE_A, iocs({ wallets: ["0x52908400098527886E0F7030069857D2E4169EE7"] }))).assessment));
  const enc = (s: string) => new TextEncoder().encode(s);
  test("passes clean bytes and refuses a planted value as text or as an escaped JSON string, naming no value", () => {
    expect(guardExport(enc('{"a":"clean"}'), secrets, { json: true, what: "x.json" })).toBeUndefined();
    const plain = guardExport(enc("note,0x52908400098527886e0f7030069857d2e4169ee7\r\n"), secrets, { what: "leads.csv" });
    expect(plain).toMatch(/ioc_value in leads\.csv/);
    expect(plain).not.toMatch(/0x5290/i);
    const escaped = '{"a":"0\\u0078\\u0035\\u0032908400098527886E0F7030069857D2E4169EE7"}';
    // The guard reads JSON escapes among its decoding layers, so the escaped form is found in the text as well.
    expect(guardExport(enc(escaped), secrets, { what: "x.json" })).toBe("leak guard: ioc_value in x.json");
    expect(guardExport(enc(escaped), secrets, { json: true, what: "x.json" })).toBe("leak guard: ioc_value in x.json; ioc_value in x.json.a");
    expect(guardExport(new Uint8Array([0xff, 0xfe]), secrets, { what: "x" })).toMatch(/not UTF-8/);
  });
});

describe("writing exports", () => {
  test("a feed directory appears whole or not at all; symlinks and other content are refused; identical output is accepted", async () => {
    const { mkdtempSync, symlinkSync, mkdirSync, readdirSync, statSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const { writeExportDirectory, writeExportFile, ExportWriteError } = await import("../../../capsules/exports/write-output.js");
    const root = mkdtempSync(join(tmpdir(), "eb-write-"));
    try {
      const files = [{ name: "manifest.json", bytes: new TextEncoder().encode("{}\n") }, { name: "a.json", bytes: new TextEncoder().encode("[]\n") }];
      const dir = join(root, "feed");
      expect(writeExportDirectory(dir, files)).toBe("created");
      expect(readdirSync(dir).sort()).toEqual(["a.json", "manifest.json"]);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(statSync(join(dir, "a.json")).mode & 0o777).toBe(0o600);
      expect(readdirSync(root)).toEqual(["feed"]);
      expect(writeExportDirectory(dir, files)).toBe("unchanged");
      expect(() => writeExportDirectory(dir, files.slice(0, 1))).toThrow(ExportWriteError);
      mkdirSync(join(root, "real"));
      symlinkSync(join(root, "real"), join(root, "link"));
      expect(() => writeExportDirectory(join(root, "link"), files)).toThrow(/not a directory/);
      const file = join(root, "bundle.json");
      expect(writeExportFile(file, files[0].bytes)).toBe("created");
      expect(writeExportFile(file, files[0].bytes)).toBe("unchanged");
      expect(() => writeExportFile(file, files[1].bytes)).toThrow(/different content/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
