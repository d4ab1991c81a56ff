/**
 * `evidence-bridge help [COMMAND]` and `--help`: the command list with one line per command, taken from each
 * command module's own `help` text (its `summary` when it has one, else the first sentence of the paragraph after
 * the usage line), so a command added to the table appears here without further work.
 */
import type { CliCommand } from "./context.js";

const MAX_SUMMARY = 96;

/** One line describing a command, from its `summary` or its help text. */
export function summaryOf(command: Pick<CliCommand, "help"> & { summary?: string }): string {
  if (command.summary !== undefined) return command.summary;
  const paragraphs = command.help.split(/\n[ \t]*\n/).map((p) => p.replace(/\s+/g, " ").trim());
  const body = paragraphs.find((p, i) => i > 0 && p !== "" && !p.startsWith("usage:")) ?? "";
  let sentence = (body.split(/(?<=[a-z0-9)'"])\.(?:\s|$)/)[0] ?? "").replace(/^[A-Z][a-z]/, (w) => w.toLowerCase());
  if (sentence.length > MAX_SUMMARY) sentence = sentence.replace(/\s*\([^()]*\)/g, "");
  if (sentence.length > MAX_SUMMARY) {
    const cut = sentence.search(/: |; /);
    if (cut > 20) sentence = sentence.slice(0, cut);
  }
  // Never cut a word: a summary still too long is the command's to shorten (test/bridge/cli/help.test.ts checks).
  return sentence;
}

export interface HelpEntry {
  name: string;
  summary: string;
}

export const GLOBAL_FLAGS_TEXT = `Global flags (before or after the command): --home DIR, --mcp-url URL, --base-url URL, --pack FILE,
  --timeout-ms N, --offline (send nothing anywhere)`;

/** The whole usage text: global flags and every command with its one-line description. */
export function usageText(entries: HelpEntry[]): string {
  const width = Math.max(...entries.map((e) => e.name.length));
  return `usage: evidence-bridge [global flags] [command] [args]

With no command, serves MCP over stdio (what desktop MCP clients launch).

${GLOBAL_FLAGS_TEXT}

Commands:
${entries.map((e) => `  ${e.name.padEnd(width)}  ${e.summary}`).join("\n")}

Run 'evidence-bridge help COMMAND' (or 'evidence-bridge COMMAND --help') for a command's usage.
`;
}

/** Help text is shown at most this wide. */
export const HELP_WIDTH = 100;

/** Where the words of a line start: after its indentation, or after an option's name (`  --out FILE   words`). */
function wordColumn(line: string): number {
  const option = /^(\s*-{1,2}[A-Za-z][^\s]*(?: [A-Z][A-Za-z,.|_-]*)*\s{2,})\S/.exec(line);
  if (option) return option[1].length;
  const usage = /^usage: /.exec(line);
  if (usage) return 9;
  return line.length - line.trimStart().length;
}

/**
 * Reflows help text to {@link HELP_WIDTH} columns without cutting a word: a line that is too long breaks at its last
 * space that fits, and the rest joins the next line when that line continues the same paragraph or option (same
 * word column), else becomes a line of its own at that column. Lines that fit are kept exactly as written.
 */
export function fitColumns(text: string, width = HELP_WIDTH): string {
  const lines = text.split("\n");
  const out: string[] = [];
  let carry: { words: string; column: number } | undefined;
  for (let i = 0; i <= lines.length; i++) {
    let line = lines[i];
    if (carry !== undefined) {
      const continues = line !== undefined && line.trim() !== "" && wordColumn(line) === carry.column && !/^\s*-/.test(line) && line.length - line.trimStart().length === carry.column;
      if (continues) line = `${" ".repeat(carry.column)}${carry.words} ${line.trimStart()}`;
      else {
        lines.splice(i, 0, `${" ".repeat(carry.column)}${carry.words}`);
        line = lines[i];
      }
      carry = undefined;
    }
    if (line === undefined) break;
    if (line.length <= width) {
      out.push(line);
      continue;
    }
    const column = wordColumn(line);
    const cut = line.lastIndexOf(" ", width);
    if (cut <= column) {
      out.push(line); // one word longer than the line: kept whole, never cut
      continue;
    }
    out.push(line.slice(0, cut).trimEnd());
    carry = { words: line.slice(cut + 1).trim(), column: column };
  }
  return out.join("\n");
}
