/**
 * The review page's static assets, served from this process under `<token>/assets/` (no external fonts, scripts or
 * images; the Content-Security-Policy allows styles and images from this origin only).
 */

/** The tab icon (a plain square with a check mark). */
export const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#22303f"/><path d="M4 8.5l2.5 2.5L12 5.5" stroke="#fff" stroke-width="2" fill="none"/></svg>`;
export const PAGE_CSS = `
:root { --fg: #1d2329; --muted: #5b6570; --line: #d8dde2; --bg: #f6f7f9; --card: #fff; --ok: #1f7a3a; --bad: #a42323; --wait: #8a5a00; --accent: #1f4f8a; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; justify-content: space-between; align-items: baseline; padding: 10px 24px; background: #22303f; color: #fff; }
header a.home { color: #fff; font-weight: 600; text-decoration: none; font-size: 16px; }
header .who { color: #cfd8e2; }
main { padding: 16px 24px; max-width: 1280px; }
footer { padding: 8px 24px 24px; color: var(--muted); font-size: 12px; }
h1 { font-size: 20px; margin: 8px 0 12px; }
h2 { font-size: 16px; margin: 20px 0 8px; }
table { border-collapse: collapse; width: 100%; background: var(--card); border: 1px solid var(--line); }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: #eef1f4; font-weight: 600; font-size: 12px; text-transform: uppercase; letter-spacing: .03em; color: var(--muted); }
tr:hover td { background: #fafbfc; }
code, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 12.5px; }
a { color: var(--accent); }
.status { display: inline-block; padding: 1px 6px; border-radius: 3px; font-size: 12px; font-weight: 600; white-space: nowrap; }
.s-HUMAN_REVIEW_REQUIRED { background: #e8eef7; color: var(--accent); }
.s-APPROVED_FOR_RELEASE { background: #e3f3e8; color: var(--ok); }
.s-REJECTED { background: #f8e5e5; color: var(--bad); }
.s-NEEDS_MORE_EVIDENCE { background: #fbf0d9; color: var(--wait); }
.approvals { color: var(--muted); font-size: 12px; white-space: nowrap; }
.summary { color: var(--muted); margin: 8px 0 0; }
.card { background: var(--card); border: 1px solid var(--line); padding: 12px 16px; margin: 0 0 12px; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; }
ul.reasons { margin: 0; padding-left: 20px; }
form.decide { display: grid; gap: 8px; }
form.decide label { font-weight: 600; }
form.decide input[type=text], form.decide select { width: 100%; padding: 6px 8px; font: inherit; border: 1px solid var(--line); }
pre.export-preview { white-space: pre-wrap; word-break: break-all; }
form.decide .buttons { display: flex; gap: 8px; }
button { font: inherit; padding: 6px 14px; border: 1px solid transparent; border-radius: 3px; cursor: pointer; color: #fff; }
button.approve { background: var(--ok); }
button.reject { background: var(--bad); }
button.defer { background: var(--wait); }
.notice { padding: 8px 12px; margin: 0 0 12px; border-left: 4px solid var(--ok); background: #eef8f1; }
.notice.error { border-color: var(--bad); background: #fbeeee; }
pre { background: #fbfbfc; border: 1px solid var(--line); padding: 8px; overflow: auto; max-height: 420px; font-size: 12px; }
.views a { margin-right: 12px; }
`;
