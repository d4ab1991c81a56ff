/** Short, path-free text for a file-system error: `no such file or directory (ENOENT)`. */
export function fsErrorDetail(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  if (typeof err?.code !== "string") return e instanceof Error ? e.message : String(e);
  // Node's text is `CODE: description, syscall 'path'`: keep the description only (paths stay out of reports).
  const description = String(err.message).replace(/^[A-Z0-9_]+: /, "").split(",")[0].trim();
  return description && description !== err.code ? `${description} (${err.code})` : err.code;
}
