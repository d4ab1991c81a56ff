/**
 * The review page's IOC values (issue 32 item 2): an approved candidate's page lists each value's kind, checksum
 * state, the stored capsules carrying it and its release state with the value hidden; the value appears only on its
 * own page after "Reveal"; its release form needs the same Origin and the form's CSRF token (bound to that value) and
 * records a signed release.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readReleases } from "../../../capsules/release/index.js";
import { approve, buildCapsule, cli, iocs, MESSAGE_A, MESSAGE_B, removeHomes, SYNTHETIC_PACK_FILE, tempHome } from "../../capsules/exports/synthetic-store.js";
import { formFields, http, post } from "./http.js";
import { startPage, type PageSession } from "./page-session.js";

afterAll(removeHomes);

const WALLET = "0x52908400098527886E0F7030069857D2E4169EE7";
const HANDLE = "@synthetic_recruiter_demo";

describe("IOC values on the review page", () => {
  let home: string;
  let id: string;
  let page: PageSession;

  beforeAll(async () => {
    home = tempHome("page-values");
    id = await buildCapsule(home, MESSAGE_A, iocs({ handles: [HANDLE], wallets: [WALLET] }));
    // A second capsule carrying the same wallet (other case): "carried by 2".
    await buildCapsule(home, MESSAGE_B, iocs({ wallets: [WALLET.toLowerCase()] }));
    await approve(home, id);
    page = await startPage(["--home", home, "--pack", SYNTHETIC_PACK_FILE, "review", "serve", "--reviewer", "alice"]);
  }, 120_000);

  afterAll(async () => {
    await page?.stop();
  });

  test("the candidate page lists the values hidden; Reveal shows one with its release form; a release is signed", async () => {
    const candidate = await http(`${page.url}c/${id}`);
    expect(candidate.status).toBe(200);
    expect(candidate.body).toContain("<h2>IOC values</h2>");
    expect(candidate.body).toMatch(/<td>wallets<\/td><td>0<\/td><td class="mono">hidden<\/td><td>no checksum<\/td><td>2<\/td><td>not released<\/td>/);
    expect(candidate.body).toMatch(/<td>handles<\/td><td>0<\/td><td class="mono">hidden<\/td><td>-<\/td><td>1<\/td><td>not releasable/);
    for (const v of [WALLET, WALLET.toLowerCase(), HANDLE, HANDLE.slice(1)]) expect(candidate.body.toLowerCase()).not.toContain(v.toLowerCase());

    const shown = await http(`${page.url}c/${id}/value?kind=wallets&index=0`);
    expect(shown.status).toBe(200);
    expect(shown.body).toContain(WALLET);
    const fields = formFields(shown.body);
    expect(fields).toMatchObject({ kind: "wallets", index: "0" });
    // Without the Origin, or with the token of another value, the release is refused.
    expect((await post(`${page.url}c/${id}/release`, undefined, { ...fields, reason: "corroborated" })).status).toBe(403);
    expect((await post(`${page.url}c/${id}/release`, page.origin, { ...fields, index: "1", reason: "corroborated" })).status).toBe(403);
    expect(readReleases(home)).toEqual([]);
    const released = await post(`${page.url}c/${id}/release`, page.origin, { ...fields, reason: "corroborated" });
    expect(released.status).toBe(200);
    expect(released.body).toContain("Released by alice: 1 of 1 releases");
    expect(readReleases(home).map((r) => [r.kind, r.index, r.reviewer.name])).toEqual([["wallets", 0, "alice"]]);
    expect((await http(`${page.url}c/${id}`)).body).toMatch(/<td>wallets<\/td><td>0<\/td><td class="mono">hidden<\/td><td>no checksum<\/td><td>2<\/td><td>RELEASED: 1 of 1 \(alice\)<\/td>/);
    // A kind the policy does not release has no form; an unknown value is refused.
    expect((await http(`${page.url}c/${id}/value?kind=handles&index=0`)).body).toContain("does not release this kind");
    expect((await http(`${page.url}c/${id}/value?kind=wallets&index=7`)).status).toBe(404);
    expect((await http(`${page.url}c/${id}/value?kind=pets&index=0`)).status).toBe(400);
    const cliExport = await cli(home, ["review", "export", "--format", "stix", "--out", `${home}-released.json`]);
    expect(cliExport.stdout).toMatch(/released: wallets #0/);
  });
});
