/**
 * Text from outside (the upstream server's tool names, error messages, drift findings; configuration values) on
 * a terminal (product.md §9 and issue 11 item 3): control, bidi, format, line and paragraph separator characters
 * and escape sequences never reach stderr or stdout raw. Each such character is shown as `\u{XXXX}`, so the line
 * stays one line, readable and unable to move the cursor, recolour, reorder or hide text.
 */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}\u2028\u2029\ufff9-\ufffb]/gu;

/** `s` with every control, format (bidi, zero-width), private-use and separator character escaped. */
export function terminalSafe(s: string): string {
  return s.replace(UNSAFE, (c) => `\\u{${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}}`);
}

/** {@link terminalSafe} keeping the line breaks of a multi-line text. */
export function terminalSafeLines(s: string): string {
  return s
    .split("\n")
    .map((l) => terminalSafe(l))
    .join("\n");
}
