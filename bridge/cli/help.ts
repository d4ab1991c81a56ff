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
  if (sentence.length > MAX_SUMMARY) sentence = `${sentence.slice(0, MAX_SUMMARY - 1).replace(/\s+\S*$/, "")}…`;
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
