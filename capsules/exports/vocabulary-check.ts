/**
 * The outward vocabulary (capsules/allowlist/outward-vocabulary.ts) over every file of an export, before the form
 * guard: a string outside it refuses the export, naming the file, the place and the rule, never the string. The
 * reviewers' notes are the free text the vocabulary lets through (the form guard checks them), and their display
 * names are words of it.
 */
import { OutwardVocabulary } from "../allowlist/outward-vocabulary.js";
import type { IntelligencePack } from "../../published/pack/types.js";

interface DecisionTexts {
  names: string[];
  freeText: string[];
}

/** The reviewer names and free texts (notes, public notes) of the decisions in JSONL export lines. */
function decisionTexts(lines: readonly Uint8Array[]): DecisionTexts {
  const out: DecisionTexts = { names: [], freeText: [] };
  for (const bytes of lines) {
    const line = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)) as { decision?: Record<string, unknown> };
    const d = line.decision;
    if (d === undefined) continue;
    const reviewer = d.reviewer as { name?: unknown } | undefined;
    if (typeof reviewer?.name === "string") out.names.push(reviewer.name);
    for (const k of ["note", "public_note"]) if (typeof d[k] === "string") out.freeText.push(d[k] as string);
  }
  // As they are written inside CSV cells too (a quote doubled).
  out.freeText.push(...out.freeText.filter((t) => t.includes('"')).map((t) => t.replace(/"/g, '""')));
  return out;
}

/**
 * Undefined when every string of the export is in the vocabulary, else the refusal. `lines`: the JSONL export's
 * lines (checked themselves when `files` is undefined); `files`: the rendered STIX/MISP (JSON) or CSV files.
 */
export function vocabularyRefusal(
  pack: IntelligencePack,
  lines: readonly Uint8Array[],
  files?: readonly { name: string; bytes: Uint8Array; json: boolean }[],
): string | undefined {
  const { names, freeText } = decisionTexts(lines);
  const vocab = OutwardVocabulary.of(pack, names);
  const what =
    files ??
    lines.map((bytes, i) => ({ name: `line ${i + 1}`, bytes, json: true }));
  for (const f of what) {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(f.bytes);
    if (f.json) {
      const u = vocab.unlisted(JSON.parse(text), f.name, freeText);
      if (u !== undefined) return `outward vocabulary: ${u.path} holds a ${u.rule === "word" ? "word" : u.rule === "number" ? "number" : "symbol"} outside the closed vocabulary of exports (docs/guard.md); nothing was exported`;
    } else {
      const lineNo = text.split("\n").findIndex((l) => vocab.ruleBroken(l, freeText) !== undefined);
      if (lineNo >= 0) return `outward vocabulary: ${f.name} line ${lineNo + 1} holds a string outside the closed vocabulary of exports (docs/guard.md); nothing was exported`;
    }
  }
  return undefined;
}
