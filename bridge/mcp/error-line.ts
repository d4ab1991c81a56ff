/** Error text for stderr: one line, and never the JSON of a message (the SDK quotes whole messages in some errors). */
export function safeErrorLine(e: Error): string {
  const first = (e.message ?? String(e)).split("\n")[0];
  const cut = first.search(/[{[]/);
  return (cut === -1 ? first : `${first.slice(0, cut)}…`).slice(0, 300);
}
