/**
 * The review page over plain HTTP: bound to 127.0.0.1 with a session token, refusing other Hosts (DNS rebinding),
 * foreign Origins and cross-site requests, tokenless requests and decisions without their form's CSRF token; a
 * strict CSP on every response; decisions land in the same signed log as the CLI's, through the same note guard;
 * nothing private is ever rendered.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { loadReviewLog } from "../../../capsules/review/log.js";
import { esc } from "../../../bridge/review-page/html.js";
import { describeShared } from "../../helpers/shared.js";
import { exampleCapsule, exampleCapsules, PACK_FILE, removeHomes, storeWith } from "../../capsules/feed/store-fixtures.js";
import { cli } from "../../capsules/review/cli-run.js";
import { reviewer } from "../../capsules/review/review-fixtures.js";
import { formFields, http, post } from "./http.js";
import { startPage, type PageSession } from "./page-session.js";

afterAll(removeHomes);

/** Private values of example 03 (IOCs, message hash prefix, pseudonym): never on any page. */
const PRIVATE_03 = ["@usdt_kitchen_sink", "98765 01234", "9123456780", "ops@usdt-desk.example", "TmcD3cQqkpT9P5aXLUff69yRPBEn1ce2p3", "6c18f5cf1a92f917", "2a03e167de54e6928d11b52f"];

test("esc escapes every character that could end text or an attribute", () => {
  expect(esc(`<script>alert("x")</script> & 'y'`)).toBe("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;");
});

describeShared("review page over HTTP", () => {
  let home: string;
  let page: PageSession;
  const id = (prefix: string) => exampleCapsule(prefix).id;
  const records = () => loadReviewLog(home).records;

  beforeAll(async () => {
    ({ home } = await storeWith("page-http", exampleCapsules()));
    reviewer(home, "alice");
    reviewer(home, "bob");
    page = await startPage(["--home", home, "--pack", PACK_FILE, "review", "serve", "--reviewer", "alice"]);
  });

  afterAll(async () => {
    const r = await page.stop();
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("review serve: stopped");
  });

  test("the queue is served with the token, a strict CSP and no private value", async () => {
    const r = await http(page.url);
    expect(r.status).toBe(200);
    expect(r.headers["content-security-policy"]).toBe(
      "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(r.headers["x-frame-options"]).toBe("DENY");
    expect(r.headers["referrer-policy"]).toBe("same-origin");
    expect(r.body).toContain("<h1>Review queue</h1>");
    expect(r.body).toContain(id("03").slice(0, 12));
    expect(r.body).not.toMatch(/<script|https?:\/\/(?!127\.0\.0\.1)/i);
    const c03 = await http(`${page.url}c/${id("03")}`);
    expect(c03.status).toBe(200);
    expect(c03.body).toContain("Why it is a candidate");
    for (const v of PRIVATE_03) {
      expect(r.body.toLowerCase()).not.toContain(v.toLowerCase());
      expect(c03.body.toLowerCase()).not.toContain(v.toLowerCase());
    }
    const css = await http(`${page.url}assets/page.css`);
    expect(css.status).toBe(200);
    expect(css.headers["content-type"]).toBe("text/css; charset=utf-8");
  });

  test("requests without the token, with a wrong token, another Host or a foreign Origin are refused", async () => {
    const base = new URL(page.url);
    expect((await http(`${page.origin}/`)).status).toBe(403);
    expect((await http(`${page.origin}/${"A".repeat(43)}/`)).status).toBe(403);
    expect((await http(`${page.url.slice(0, -1)}x/`)).status).toBe(403);
    const rebinding = await http(page.url, { headers: { Host: `attacker.example:${base.port}` } });
    expect(rebinding.status).toBe(421);
    expect(rebinding.body).toBe("refused: unexpected Host header (only 127.0.0.1 with this port is served)\n");
    expect((await http(page.url, { headers: { Host: `localhost:${base.port}` } })).status).toBe(421);
    const foreign = await http(page.url, { headers: { Origin: "http://attacker.example" } });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toBe("refused: cross-origin request refused\n");
    expect((await http(page.url, { headers: { "Sec-Fetch-Site": "cross-site" } })).status).toBe(403);
  });

  test("decisions need the same Origin and their form's CSRF token; a valid one is signed into the log", async () => {
    const url = `${page.url}c/${id("01")}`;
    const fields = formFields((await http(url)).body);
    expect(Object.keys(fields).sort()).toEqual(["candidate", "clean", "csrf", "tm"]);
    const decide = `${url}/decide`;
    const good = { ...fields, decision: "approve", note: "Matches the mule rental pattern; share." };
    const before = records().length;
    const noCsrf = await post(decide, page.origin, { ...good, csrf: "" });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body).toContain("missing or invalid CSRF token");
    const otherForm = formFields((await http(`${page.url}c/${id("08")}`)).body).csrf;
    expect((await post(decide, page.origin, { ...good, csrf: otherForm })).status).toBe(403);
    expect((await post(decide, "http://attacker.example", good)).status).toBe(403);
    expect((await post(decide, undefined, good)).status).toBe(403);
    expect(records()).toHaveLength(before);

    const ok = await post(decide, page.origin, good);
    expect(ok.status).toBe(303);
    expect(ok.headers.location).toBe(`${new URL(page.url).pathname}c/${id("01")}?done=${before + 1}`);
    const last = records().at(-1)!.record;
    expect(last).toMatchObject({ capsule_sha256: id("01"), candidate_sha256: fields.candidate, decision: "APPROVED_FOR_RELEASE", note: good.note });
    expect(last.reviewer.name).toBe("alice");
    expect((await cli(["--home", home, "review", "log", "--verify"])).code).toBe(0);
    const after = await http(`${page.origin}${ok.headers.location as string}`);
    expect(after.body).toContain(`Recorded APPROVED_FOR_RELEASE (1 of 1 approval) as record #${before + 1} by alice`);
    // The same decision again is refused with the log's own reason.
    const again = await post(decide, page.origin, good);
    expect(again.status).toBe(409);
    expect(again.body).toContain("a decision on the same bytes is final");
  });

  test("a note holding a private value is refused without echoing it; markup in a note is escaped", async () => {
    const url = `${page.url}c/${id("03")}`;
    const fields = formFields((await http(url)).body);
    const before = records().length;
    const leak = await post(`${url}/decide`, page.origin, { ...fields, decision: "reject", note: "desk reachable at @USDT_kitchen_sink" });
    expect(leak.status).toBe(409);
    expect(leak.body).toContain("Refused: The note was refused: leak guard: ioc_value in the note");
    expect(leak.body).not.toContain("--note");
    expect(leak.body.toLowerCase()).not.toContain("@usdt_kitchen_sink");
    expect(records()).toHaveLength(before);
    const marked = await post(`${url}/decide`, page.origin, { ...fields, decision: "defer", note: `<b onclick="x">bold</b>` });
    expect(marked.status).toBe(303);
    const shown = (await http(url)).body;
    expect(shown).toContain("&lt;b onclick=&quot;x&quot;&gt;bold&lt;/b&gt;");
    expect(shown).not.toContain("<b onclick");
  });

  test("review serve refuses any address but 127.0.0.1", async () => {
    const r = await cli(["--home", home, "--pack", PACK_FILE, "review", "serve", "--host", "0.0.0.0"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("evidence-bridge: review serve: --host: only 127.0.0.1 is allowed (the review page never listens on another address)\n");
  });
});
