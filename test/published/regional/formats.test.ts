/** RFC 3339 date-times (JSON Schema `date-time`) and absolute URI / IRI (JSON Schema `uri`, `iri`). */
import { describe, expect, test } from "vitest";
import { compareInstants, epochDays, isRfc3339DateTime, parseRfc3339 } from "../../../published/regional/rfc3339.js";
import { isIpv6, isIri, isUri } from "../../../published/regional/uri.js";

describe("RFC 3339 date-time", () => {
  test.each([
    "2026-08-22T06:00:00Z",
    "2026-08-22t06:00:00z",
    "2026-08-22T06:00:00.1Z",
    "2026-08-22T06:00:00.123456789+05:30",
    "2024-02-29T00:00:00-00:00",
    "2000-02-29T23:59:59+23:59",
    "2016-12-31T23:59:60Z",
    "2016-12-31T18:59:60-05:00",
    "0001-01-01T00:00:00Z",
  ])("accepts %s", (s) => expect(isRfc3339DateTime(s)).toBe(true));

  test.each([
    "2026-08-22 06:00:00Z",
    "2026-08-22T06:00Z",
    "2026-08-22T06:00:00",
    "2026-08-22",
    "2026-02-29T00:00:00Z",
    "1900-02-29T00:00:00Z",
    "2026-04-31T00:00:00Z",
    "2026-13-01T00:00:00Z",
    "2026-00-01T00:00:00Z",
    "2026-08-22T24:00:00Z",
    "2026-08-22T06:60:00Z",
    "2026-08-22T06:00:61Z",
    "2026-08-22T06:00:60Z",
    "2026-08-22T06:00:00.Z",
    "2026-08-22T06:00:00+24:00",
    "2026-08-22T06:00:00+05:60",
    "2026-08-22T06:00:00+0530",
    "2026-08-22T06:00:00Z ",
    "+2026-08-22T06:00:00Z",
    "２０２６-08-22T06:00:00Z",
    "",
  ])("refuses %j", (s) => expect(isRfc3339DateTime(s)).toBe(false));

  test("instants compare across offsets and fraction lengths", () => {
    const at = (s: string) => parseRfc3339(s)!;
    expect(compareInstants(at("2026-08-22T06:00:00Z"), at("2026-08-22T11:30:00+05:30"))).toBe(0);
    expect(compareInstants(at("2026-08-22T06:00:00.5Z"), at("2026-08-22T06:00:00.50000Z"))).toBe(0);
    expect(compareInstants(at("2026-08-22T06:00:00.05Z"), at("2026-08-22T06:00:00.5Z"))).toBeLessThan(0);
    expect(compareInstants(at("2026-08-23T00:00:00+01:00"), at("2026-08-22T23:30:00Z"))).toBeLessThan(0);
    expect(at("1970-01-01T00:00:00Z").seconds).toBe(0);
    expect(epochDays(2000, 3, 1)).toBe(11017);
    expect(epochDays(1969, 12, 31)).toBe(-1);
  });
});

describe("URI and IRI", () => {
  test.each([
    "https://index.example/news/wire/event-1/",
    "http://user:pw@host.example:8080/a/b?c=d&e=%20#frag",
    "https://[2001:db8::1]/x",
    "https://[::ffff:192.0.2.1]:443/",
    "https://[v1.fe80::a+en1]/",
    "mailto:desk@index.example",
    "urn:isbn:0451450523",
    "file:///etc/hosts",
    "https://host.example/a:b@c/!$&'()*+,;=",
  ])("URI and IRI: %s", (s) => {
    expect(isUri(s)).toBe(true);
    expect(isIri(s)).toBe(true);
  });

  test.each([
    "https://索引.example/新闻/",
    "https://host.example/path?q=\u{E000}",
    "https://host.example/\u00e9t\u00e9#d\u00e9but",
  ])("IRI but not URI: %s", (s) => {
    expect(isIri(s)).toBe(true);
    expect(isUri(s)).toBe(false);
  });

  test.each([
    "//host.example/a",
    "/feed.xml",
    "feed.xml",
    "1http://host.example/",
    "https://host .example/",
    "https://host.example/a b",
    "https://host.example/%zz",
    "https://host.example/%4",
    "https://[::1/",
    "https://[::1]x/",
    "https://[1:2:3:4:5:6:7:8:9]/",
    "https://host.example:80a/",
    "https://a@b@host.example/",
    "https://host.example/<script>",
    "https://host.example/\u{E000}",
    "https://host.example/#a#b",
    "",
  ])("neither: %j", (s) => {
    expect(isUri(s)).toBe(false);
    expect(isIri(s)).toBe(false);
  });

  test("IPv6 forms", () => {
    for (const ok of ["::", "::1", "1::", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:1.2.3.4", "1::2:3", "fe80::1"]) expect(isIpv6(ok), ok).toBe(true);
    for (const no of ["", ":", ":1", "1:::2", "1::2::3", "1:2:3:4:5:6:7", "12345::", "1:2:3:4:5:6:7:8:9", "::1.2.3.256", "::01.2.3.4", "g::"]) {
      expect(isIpv6(no), no).toBe(false);
    }
  });
});
