/**
 * HTML for the review page: every dynamic value goes through {@link esc} (text and attribute context alike), and
 * pages are built only from these helpers. No script is ever emitted; the one stylesheet is served by this server.
 */

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for HTML element content and double- or single-quoted attribute values. */
export function esc(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** A full page: title, a header naming the reviewer, and the body (already escaped HTML). */
export function page(opts: { title: string; base: string; reviewer: string; policy: string; body: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(opts.title)} · evidence-bridge review</title>
<link rel="stylesheet" href="${esc(opts.base)}/assets/page.css">
<link rel="icon" href="${esc(opts.base)}/assets/icon.svg">
</head>
<body>
<header>
<a class="home" href="${esc(opts.base)}/">evidence-bridge review</a>
<span class="who">signing as <strong>${esc(opts.reviewer)}</strong> · policy: ${esc(opts.policy)}</span>
</header>
<main>
${opts.body}
</main>
<footer>Local page on 127.0.0.1; nothing is sent anywhere. Candidates show counts only: IOC values and message content stay in the sealed store.</footer>
</body>
</html>
`;
}
