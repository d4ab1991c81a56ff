/**
 * Issue 28 item 7: our own identifiers (UUIDs, STIX ids, 12+ hex digit ids) are read without digit–letter folding,
 * and private values too short to be distinctive match only as whole tokens, so our artefacts are not refused for
 * values that only look like them; a value that holds such an identifier-shaped run is still found by its windows.
 */
import { describe, expect, it } from "vitest";
import { compactKeepingIds, foldText } from "../../../capsules/guard/forms.js";
import { OutwardGuard } from "../../../capsules/guard/outward-guard.js";
import type { PrivateValue } from "../../../capsules/guard/private-values.js";
import { SHORT_MAX } from "../../../capsules/guard/value-forms.js";

const handle = (value: string): PrivateValue => ({ kind: "ioc_value", ioc: "handles", value });
const STIX_ID = "grouping--0b2c4d5e-1111-4222-8333-444455556666";

describe("identifiers are read literally", () => {
  it("keeps the digits of a UUID, a STIX id and a hex id, and folds the text around them as before", () => {
    expect(foldText(STIX_ID).compact).toBe("groupingob2c4d5ellll42228333444455556666");
    expect(compactKeepingIds(STIX_ID)).toBe("grouping0b2c4d5e111142228333444455556666");
    expect(compactKeepingIds("ed25519:0f1e2d3c4b5a69788796a5b4 by Alice")).toBe("ed255l9" + "0f1e2d3c4b5a69788796a5b4" + "byalice");
    // Not an identifier: fewer than 12 hex digits, or a letter or digit beside the run.
    expect(compactKeepingIds("cafe0110")).toBe(foldText("cafe0110").compact);
    expect(compactKeepingIds("z0b2c4d5e1111")).toBe(foldText("z0b2c4d5e1111").compact);
  });

  it("does not find a value that only the digit–letter folding of an identifier would spell", () => {
    // "ngob2c4d" (8 significant characters, searched inside text) is spelled by "grouping--0b2c4d…" read with 0 as o.
    const guard = new OutwardGuard([handle("@ngob2c4d")]);
    expect(guard.checkText(STIX_ID)).toBeUndefined();
    expect(guard.check({ id: STIX_ID, object_refs: [STIX_ID] }, "bundle").ok).toBe(true);
    expect(guard.checkText("ask ngob2c4d today")).toEqual({ kind: "ioc_value" });
    expect(guard.checkText("ask NG0B2C4D today")).toEqual({ kind: "ioc_value" });
  });

  it("still finds a value holding 12 hex digits in a row when outward text makes them an identifier", () => {
    const guard = new OutwardGuard([handle("@x_0b2c4d5e1111")]);
    expect(guard.checkText("x-0b2c4d5e1111")).toEqual({ kind: "ioc_value" });
    expect(guard.checkText("see 0b2c4d5e1111 now")).toEqual({ kind: "ioc_value" });
    expect(guard.checkText("x_0b2c4d5e1111")).toEqual({ kind: "ioc_value" });
  });
});

describe("values too short to be distinctive match only as whole tokens", () => {
  it(`a value of at most ${SHORT_MAX} significant characters is found alone, never inside a URL or an id`, () => {
    const guard = new OutwardGuard([
      { kind: "observation_source", value: "news-a" },
      { kind: "observation_source", value: "ngo-b" },
    ]);
    expect(guard.checkText("https://www.interpol.int/News-and-Events/News/2026/INTERPOL-report")).toBeUndefined();
    expect(guard.checkText(STIX_ID.replace("0b2c", "0b1f"))).toBeUndefined();
    expect(guard.checkText("source news-a said so")).toEqual({ kind: "observation_source" });
    expect(guard.checkText("NGO-B")).toEqual({ kind: "observation_source" });
  });

  it(`a value of ${SHORT_MAX + 1} is distinctive: found inside other text`, () => {
    const guard = new OutwardGuard([handle("@abcdefgh")]);
    expect(guard.checkText("xxabcdefghxx")).toEqual({ kind: "ioc_value" });
    expect(new OutwardGuard([handle("@abcdefg")]).checkText("xxabcdefgxx")).toBeUndefined();
  });
});
