/**
 * The review page on our synthetic example (runs without ../shared; issue 30 items 5 and 6): a candidate that is
 * still open shows the decision form; a refused note is told in the page's words (the note field, never the CLI
 * flag); a final decision shows its state instead of buttons. Over plain HTTP always, and in headless Chromium
 * when Debian's chromium is installed (.ci/run installs it).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { cli } from "../../capsules/review/cli-run.js";
import { reviewer } from "../../capsules/review/review-fixtures.js";
import { runCli } from "../../helpers/cli.js";
import { repoRoot } from "../../helpers/shared.js";
import { formFields, http, post } from "./http.js";
import { startPage, type PageSession } from "./page-session.js";

const EX = join(repoRoot, "examples/synthetic");
const PACK = join(EX, "intelligence-pack.json");
const ID = "733c55ea68db7852f0170cc3e3b6d3ed829b508d8bfb8ca7c55033c2db682d69";
const HANDLE = "@synthetic_recruiter_demo";
const CHROMIUM = "/usr/bin/chromium";
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A data directory holding the synthetic capsule and reviewer keys alice and bob. */
async function syntheticHome(): Promise<string> {
  const home = mkdtempSync(join(tmpdir(), "eb-page-synthetic-"));
  dirs.push(home);
  const built = await runCli(["--home", home, "--pack", PACK, "capsule", "build", "--message-file", join(EX, "message.txt")], { stdin: readFileSync(join(EX, "assessment.json")) });
  expect(built.code, built.stderr).toBe(0);
  reviewer(home, "alice");
  reviewer(home, "bob");
  return home;
}

describe("the review page on the synthetic example", () => {
  let home: string;
  let page: PageSession;
  beforeAll(async () => {
    home = await syntheticHome();
    page = await startPage(["--home", home, "review", "serve", "--reviewer", "alice"]);
  });
  afterAll(async () => {
    if (page) expect((await page.stop()).code).toBe(0);
  });

  test("an open candidate has the form; a leaky note is refused in the page's words; a final approval shows its state", async () => {
    const url = `${page.url}c/${ID}`;
    const open = await http(url);
    expect(open.status).toBe(200);
    expect(open.body).toContain("<h2>Decide</h2>");
    expect(open.body).toContain('<button class="approve"');
    const fields = formFields(open.body);

    const leak = await post(`${url}/decide`, page.origin, { ...fields, decision: "approve", note: `contact ${HANDLE}` });
    expect(leak.status).toBe(409);
    expect(leak.body).toContain("Refused: The note was refused: leak guard");
    expect(leak.body).not.toContain("--note");
    expect(leak.body).not.toContain(HANDLE);

    const ok = await post(`${url}/decide`, page.origin, { ...fields, decision: "approve", note: "Synthetic example checked" });
    expect(ok.status).toBe(303);
    const done = await http(`${page.origin}${ok.headers.location as string}`);
    expect(done.body).toContain("<h2>Decision</h2>");
    expect(done.body).toMatch(/<p class="state" role="status"><span class="status s-APPROVED_FOR_RELEASE">APPROVED_FOR_RELEASE<\/span> 1 of 1 approval: final for these candidate bytes/);
    expect(done.body).not.toContain("<button");
    expect(done.body).not.toContain('name="csrf"');
  });
});

describe.runIf(existsSync(CHROMIUM))("the review page in headless Chromium, on the synthetic example", () => {
  test("reject with a note in the browser; the page then shows the state, not the buttons", { timeout: 120_000 }, async () => {
    const home = await syntheticHome();
    expect((await cli(["--home", home, "review", "policy", "--approvals", "2"])).code).toBe(0);
    const page = await startPage(["--home", home, "review", "serve", "--reviewer", "alice"]);
    const profile = mkdtempSync(join(tmpdir(), "eb-chromium-"));
    dirs.push(profile);
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
      viewport: { width: 1280, height: 800 },
    });
    try {
      const tab = await context.newPage();
      expect((await tab.goto(page.url))?.status()).toBe(200);
      await tab.click(`a[href*="/c/${ID}"]`);
      expect(await tab.locator("button.reject").count()).toBe(1);
      await tab.fill("#note", "Synthetic example: nothing to share");
      await tab.click("button.reject");
      await tab.waitForURL(/\?done=1$/);
      expect(await tab.locator(".notice").textContent()).toMatch(/^Recorded REJECTED/);
      expect(await tab.locator("button").count()).toBe(0);
      expect(await tab.locator("p.state").textContent()).toMatch(/^REJECTED Final for these candidate bytes/);
      const shot = join(profile, "state.png");
      await tab.screenshot({ path: shot });
      expect(readFileSync(shot).subarray(1, 4).toString("latin1")).toBe("PNG");
    } finally {
      await context.close();
      expect((await page.stop()).code).toBe(0);
    }
  });
});
