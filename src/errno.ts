/** The `code` of a Node system error (`ENOENT`, `EEXIST`, ...), or undefined for any other thrown value. */
export function errno(e: unknown): string | undefined {
  return typeof e === "object" && e !== null ? (e as NodeJS.ErrnoException).code : undefined;
}
