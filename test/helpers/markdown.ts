/** Fenced code blocks of a Markdown text (README.md, docs/*.md), for the tests that run or check them. */

export interface Block {
  info: string;
  code: string;
  line: number;
}

/** Fenced code blocks of a Markdown text with their info strings and first line numbers. */
export function codeBlocks(markdown: string): Block[] {
  const out: Block[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(.*)$/.exec(lines[i]);
    if (open === null) continue;
    const start = i;
    const body: string[] = [];
    while (++i < lines.length && lines[i] !== "```") body.push(lines[i]);
    out.push({ info: open[1].trim(), code: body.join("\n"), line: start + 1 });
  }
  return out;
}
