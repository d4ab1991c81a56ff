import { readdirSync, readFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { runCli } from "./test/helpers/cli.js";
import { OutwardVocabulary } from "./capsules/allowlist/outward-vocabulary.js";
import { loadPack } from "./published/pack/load.js";
const V = "/work/shared/data/bridge-examples/valid";
const PACK = "/work/shared/data/intelligence-pack/intelligence-pack-v1.json";
const home = mkdtempSync(join(tmpdir(), "eb-vocab-"));
const cli = (args: string[], stdin?: Buffer) => runCli(["--home", home, "--pack", PACK, ...args], { stdin });
for (const n of readdirSync(V).filter((f) => /^\d\d-[a-z0-9-]+\.json$/.test(f) && !f.endsWith(".capsule.json"))) {
  await cli(["capsule", "build", "--message-file", join(V, n.replace(/\.json$/, ".txt"))], readFileSync(join(V, n)));
}
await cli(["keys", "init", "--reviewer", "alice"]);
const feed = await cli(["feed", "--include-typology-matches", "--include-clean"]);
const lines = feed.stdout.trim().split("\n");
for (const l of lines) await cli(["review", "approve", JSON.parse(l).capsule_sha256, "--note", "checked it", "--include-typology-matches", "--include-clean"]);
const vocab = OutwardVocabulary.of(loadPack(readFileSync(PACK)), ["alice"]);
const unknown = new Map<string, string>();
const scan = (v: unknown, where: string) => {
  const walk = (x: unknown, p: string) => {
    if (typeof x === "string") { for (const w of x.match(/[\p{L}\p{M}\p{N}]+/gu) ?? []) if (!/[0-9]/.test(w) && vocab.ruleBroken(w, ["checked it"]) === "word") unknown.set(w, `${where} ${p}`); if (vocab.ruleBroken(x, ["checked it"])) unknown.set("STRING:" + x.slice(0, 80), `${where} ${p} ${vocab.ruleBroken(x, ["checked it"])}`); }
    else if (Array.isArray(x)) x.forEach((y, i) => walk(y, `${p}[${i}]`));
    else if (x && typeof x === "object") for (const [k, y] of Object.entries(x)) { walk(k, p + ".key"); walk(y, `${p}.${k}`); }
  };
  walk(v, "");
};
for (const l of lines) scan(JSON.parse(l), "feed");
for (const f of ["jsonl", "stix", "misp", "csv"]) {
  const out = join(home, "out-" + f);
  const r = await cli(["review", "export", "--format", f, "--out", out]);
  if (r.code !== 0) console.log(f, r.stderr);
  if (f === "jsonl") for (const l of readFileSync(out, "utf8").trim().split("\n")) scan(JSON.parse(l), "jsonl");
  if (f === "stix") scan(JSON.parse(readFileSync(out, "utf8")), "stix");
  if (f === "misp") for (const m of readdirSync(out)) scan(JSON.parse(readFileSync(join(out, m), "utf8")), "misp");
  if (f === "csv") scan(readFileSync(out, "utf8").split(/\r?\n/), "csv");
}
for (const [w, where] of unknown) console.log(JSON.stringify(w), where);
