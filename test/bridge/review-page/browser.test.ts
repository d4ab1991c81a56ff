/**
 * The review page in a real browser: headless Chromium (Debian's `chromium` package, installed by .ci/run) driven
 * with playwright-core. A reviewer opens the printed URL, opens a candidate, approves it with a note and sees the
 * signed record; a tokenless URL and a form posted from another origin (a second local server playing the
 * attacker page) are refused; the screenshots docs/review.md shows are taken here.
 *
 * Screenshots go to docs/ when EB_SCREENSHOTS=docs is set or the docs image is missing (so a plain test run does
 * not rewrite tracked files); otherwise to the test's temporary directory. Either way they are checked to be PNGs.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadReviewLog } from "../../../capsules/review/log.js";
import { hasShared, repoRoot, sharedRoot } from "../../helpers/shared.js";
import { exampleCapsule, exampleCapsules, PACK_FILE, removeHomes, storeWith } from "../../capsules/feed/store-fixtures.js";
import { cli } from "../../capsules/review/cli-run.js";
import { reviewer } from "../../capsules/review/review-fixtures.js";
import { startPage, type PageSession } from "./page-session.js";

const CHROMIUM = "/usr/bin/chromium";
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const skipReason = !existsSync(CHROMIUM)
  ? `no Chromium at ${CHROMIUM}: install Debian's chromium package (apt-get install -y chromium), as .ci/run does`
  : !hasShared
    ? `${sharedRoot} is absent; these tests read ../shared/data in place`
    : undefined;
const describeBrowser = skipReason === undefined ? describe : describe.skip;

afterAll(removeHomes);

function screenshotPath(name: string, tmp: string): string {
  const docs = join(repoRoot, "docs", name);
  return process.env.EB_SCREENSHOTS === "docs" || !existsSync(docs) ? docs : join(tmp, name);
}

function isPng(path: string): boolean {
  const b = readFileSync(path);
  return b.length > 10_000 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
}

describeBrowser(`review page in headless Chromium${skipReason ? ` (skipped: ${skipReason})` : ""}`, () => {
  let home: string;
  let page: PageSession;
  let context: BrowserContext;
  let profile: string;
  let attacker: Server | undefined;
  const id = (prefix: string) => exampleCapsule(prefix).id;

  beforeAll(async () => {
    ({ home } = await storeWith("page-browser", exampleCapsules()));
    reviewer(home, "alice");
    reviewer(home, "bob");
    expect((await cli(["--home", home, "review", "policy", "--approvals", "2"])).code).toBe(0);
    // Some history for the queue: bob rejected one and deferred another with the CLI.
    expect((await cli(["--home", home, "--pack", PACK_FILE, "review", "reject", id("08"), "--reviewer", "bob", "--reason", "corroborated", "--public-note", "Message-only signal; nothing to share."])).code).toBe(0);
    expect((await cli(["--home", home, "--pack", PACK_FILE, "review", "defer", id("34"), "--reviewer", "bob", "--reason", "corroborated", "--public-note", "Wait for the sanctions list entry."])).code).toBe(0);
    page = await startPage(["--home", home, "--pack", PACK_FILE, "review", "serve", "--reviewer", "alice"]);
    profile = mkdtempSync(join(tmpdir(), "eb-chromium-"));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      viewport: { width: 1280, height: 800 },
    });
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await new Promise<void>((resolve) => (attacker ? attacker.close(() => resolve()) : resolve()));
    if (page) expect((await page.stop()).code).toBe(0);
  });

  test("open the page with the token, approve a candidate with a note, see it signed in the log", { timeout: 120_000 }, async () => {
    const tab = await context.newPage();
    const response = await tab.goto(page.url);
    expect(response?.status()).toBe(200);
    await expect(tab.locator("h1").textContent()).resolves.toBe("Review queue");
    expect(await tab.locator("tbody tr").count()).toBe(9);
    await tab.click(`a[href*="/c/${id("32")}"]`);
    await expect(tab.locator("h1").textContent()).resolves.toBe(`Candidate ${id("32").slice(0, 12)}`);
    const candidate = await tab.locator('input[name="candidate"]').getAttribute("value");
    await tab.selectOption("#reason", "corroborated");
    await tab.fill("#note", "Called the ranger desk; they confirmed the seizure.");
    await tab.fill("#public_note", "Two independent wildlife sources; share with the task force.");
    await tab.click("button.approve");
    await tab.waitForURL(/\?done=3$/);
    const notice = await tab.locator(".notice").textContent();
    expect(notice).toMatch(/^Recorded APPROVED_FOR_RELEASE \(1 of 2 approvals\) as record #3 by alice at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ, signed with ed25519:/);
    const last = loadReviewLog(home).records.at(-1)!.record;
    expect(last).toMatchObject({ seq: 3, capsule_sha256: id("32"), candidate_sha256: candidate, decision: "APPROVED_FOR_RELEASE" });
    expect(last.reviewer.name).toBe("alice");
    // The private note is shown to the reviewer, sealed on disk, and not in the export preview.
    // (the decisions table: an approved candidate's page also lists its IOC values, hidden, in a table of its own)
    const decisions = tab.locator("table", { hasText: "Private note (reviewers only, never exported)" });
    expect(await decisions.count()).toBe(1);
    expect(await decisions.textContent()).toContain("Called the ranger desk");
    expect(await tab.locator("pre.export-preview").textContent()).not.toContain("ranger desk");
    expect(JSON.stringify(last)).not.toContain("ranger desk");
    const tmp = mkdtempSync(join(tmpdir(), "eb-shots-"));
    const candidateShot = screenshotPath("review-page-candidate.png", tmp);
    await tab.screenshot({ path: candidateShot, fullPage: false });
    expect(isPng(candidateShot)).toBe(true);

    await tab.goto(page.url);
    const row = tab.locator("tbody tr", { has: tab.locator(`a[href*="/c/${id("32")}"]`) });
    await expect(row.locator(".approvals").first().textContent()).resolves.toBe("1 of 2 approvals");
    const queueShot = screenshotPath("review-page.png", tmp);
    await tab.screenshot({ path: queueShot, fullPage: true });
    expect(isPng(queueShot)).toBe(true);
    const list = await cli(["--home", home, "--pack", PACK_FILE, "review", "list"]);
    expect(list.stdout).toMatch(new RegExp(`${id("32").slice(0, 12)} .*APPROVED_FOR_RELEASE \\(1 of 2 approvals\\)`));
    await tab.close();
  });

  test("a URL without the token and a form posted from another origin are refused by the page", { timeout: 120_000 }, async () => {
    const tab = await context.newPage();
    const bare = await tab.goto(`${page.origin}/`);
    expect(bare?.status()).toBe(403);
    expect(await tab.textContent("body")).toContain("missing or wrong session token");

    // Even with a valid CSRF token copied from the real page, a form from another origin is refused.
    await tab.goto(`${page.url}c/${id("01")}`);
    const fields = Object.fromEntries(
      await Promise.all(["candidate", "tm", "clean", "csrf"].map(async (n) => [n, (await tab.locator(`input[name="${n}"]`).getAttribute("value")) ?? ""] as const)),
    );
    const action = `${page.url}c/${id("01")}/decide`;
    const inputs = Object.entries({ ...fields, reason: "corroborated", public_note: "forged", decision: "approve" })
      .map(([k, v]) => `<input type="hidden" name="${k}" value="${v}">`)
      .join("");
    attacker = createServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/html" });
      res.end(`<!doctype html><form id="f" method="post" action="${action}">${inputs}<button id="go">go</button></form>`);
    });
    await new Promise<void>((resolve) => attacker!.listen(0, "127.0.0.1", () => resolve()));
    const before = loadReviewLog(home).records.length;
    await tab.goto(`http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`);
    const [reply] = await Promise.all([tab.waitForResponse((r) => r.url() === action), tab.click("#go")]);
    expect(reply.status()).toBe(403);
    expect(await reply.text()).toBe("refused: cross-origin request refused\n");
    expect(loadReviewLog(home).records).toHaveLength(before);
    await tab.close();
  });
});
