/**
 * What IOC extraction alone costs a one-shot process (issue 18, "one-shot `capsule assess` within the build figure
 * + 10 ms"): two command files bundled here as `npm run build` bundles the real ones (CommonJS, minified, ASCII) and
 * loaded through the bin's own code-cache loader (bridge/cli/code-cache-loader.ts), each in a process of its own.
 *
 * - `baseline`: what `capsule build` also loads and runs (`BUILD_HAS` below) and a SHA-256 of the message;
 * - `extraction`: the same plus `extractIocs` (capsules/assess/iocs.ts: libphonenumber-js with its full metadata,
 *   linkify-it, the wallet checks) run once on the message;
 * - `libraries`: the same as `baseline` plus only the two libraries, called on the message as iocs.ts calls them
 *   (linkify-it with the reserved TLDs added, `searchPhoneNumbersInText` with the full metadata, region IN): none of our code;
 * - `phones`, `linkify`: the same as `baseline` plus one of the two libraries alone, called the same way.
 *
 * Their difference is a floor for what `capsule assess` adds to `capsule build` before it derives anything. Dev only:
 * esbuild is a dev dependency, and the probes live in a temporary directory the caller removes.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * What `capsule build` loads and runs anyway, in both probes: node:crypto, the look-alike table, and the phone
 * library with its default metadata reading one number (the outward guard's phone forms, capsules/guard/phone-digits.ts).
 */
const BUILD_HAS = `import { createHash } from "node:crypto";
import { parsePhoneNumberFromString } from "libphonenumber-js";
import { CONFUSABLES } from "./published/pack/normalize-tables.js";
function buildHas(text) {
  return createHash("sha256").update(text).digest("hex").length + CONFUSABLES.size > 0 && parsePhoneNumberFromString("+91 98765 43210") !== undefined;
}`;

export type ProbeName = "baseline" | "extraction" | "libraries" | "phones" | "linkify";

export interface ProbeTimes {
  loadMs: number;
  callMs: number;
  /** The loader's outcome: "hit" once a first run has written the cache. */
  cache: string;
}

export interface ExtractionProbe {
  /**
   * Runs one probe process on `messageFile` and returns its own timings (loading the command file: the code-cache
   * loader and the file's top level; the one call) and whether the code cache was used. Throws when it fails.
   */
  run(which: ProbeName, messageFile: string): ProbeTimes;
}

/** Bundles the probes and their runner into `dir` (from the tsc output under `repo/dist`). */
export async function makeExtractionProbe(repo: string, dir: string, env: NodeJS.ProcessEnv): Promise<ExtractionProbe> {
  const { build } = await import("esbuild");
  const dist = join(repo, "dist");
  const cacheDir = join(dir, "code-cache");
  mkdirSync(cacheDir, { mode: 0o700 });
  const common = {
    bundle: true,
    format: "cjs" as const,
    platform: "node" as const,
    target: "node20",
    charset: "ascii" as const,
    minify: true,
    keepNames: true,
    legalComments: "none" as const,
    logLevel: "error" as const,
    write: false,
  };
  const bundle = async (name: string, contents: string): Promise<string> => {
    const out = await build({ ...common, stdin: { contents, resolveDir: dist, loader: "js" } });
    const file = join(dir, `${name}.js`);
    writeFileSync(file, out.outputFiles![0].contents);
    return file;
  };
  const probes = {
    baseline: await bundle("baseline", `${BUILD_HAS}\nexport function run(text) { return buildHas(text); }`),
    extraction: await bundle(
      "extraction",
      `${BUILD_HAS}\nimport { extractIocs } from "./capsules/assess/iocs.js";\nexport function run(text) { return buildHas(text) && extractIocs(text); }`,
    ),
    libraries: await bundle(
      "libraries",
      `${BUILD_HAS}
       import LinkifyIt from "linkify-it";
       import { searchPhoneNumbersInText } from "libphonenumber-js/max";
       const linkify = new LinkifyIt();
       linkify.tlds(["example", "test", "invalid"], true);
       export function run(text) { return buildHas(text) && [linkify.match(text), [...searchPhoneNumbersInText(text, { defaultCountry: "IN" })]]; }`,
    ),
    phones: await bundle(
      "phones",
      `${BUILD_HAS}
       import { searchPhoneNumbersInText } from "libphonenumber-js/max";
       export function run(text) { return buildHas(text) && [...searchPhoneNumbersInText(text, { defaultCountry: "IN" })]; }`,
    ),
    linkify: await bundle(
      "linkify",
      `${BUILD_HAS}
       import LinkifyIt from "linkify-it";
       const linkify = new LinkifyIt();
       linkify.tlds(["example", "test", "invalid"], true);
       export function run(text) { return buildHas(text) && [linkify.match(text)]; }`,
    ),
  };
  const runner = await bundle(
    "runner",
    `import { readFileSync } from "node:fs";
     import { cacheOutcome, loadCommonJs } from "./bridge/cli/code-cache-loader.js";
     const [probe, cacheDir, messageFile] = process.argv.slice(2);
     const t0 = performance.now();
     const command = loadCommonJs(probe, { cacheDir });
     const text = readFileSync(messageFile, "utf8");
     const t1 = performance.now();
     if (!command.run(text)) process.exit(3);
     process.stdout.write(JSON.stringify({ loadMs: t1 - t0, callMs: performance.now() - t1, cache: cacheOutcome(probe) }));`,
  );
  // package.json of the directory: these .js files are CommonJS.
  writeFileSync(join(dir, "package.json"), '{ "type": "commonjs" }\n');
  return {
    run(which, messageFile) {
      const r = spawnSync(process.execPath, [runner, probes[which], cacheDir, messageFile], { env });
      if (r.status !== 0) throw new Error(`extraction probe ${which} failed (${r.status}): ${r.stderr.toString().trim()}`);
      return JSON.parse(r.stdout.toString()) as ProbeTimes;
    },
  };
}
