/**
 * IOC values recorded as the message writes them (issue 31): a defanged e-mail address or Telegram link, or one with
 * look-alike letters, is a private value that the outward guard also finds written plainly.
 */
import { describe, expect, it } from "vitest";
import { OutwardGuard } from "../../../capsules/guard/outward-guard.js";
import type { PrivateValue } from "../../../capsules/guard/private-values.js";

const guardOf = (values: PrivateValue[]) => new OutwardGuard(values);
const blocked = (g: OutwardGuard, text: string): boolean => !g.check({ note: text }, "candidate").ok;

describe("defanged and look-alike IOC values", () => {
  it("a defanged e-mail address is found written plainly and defanged", () => {
    const g = guardOf([{ kind: "ioc_value", ioc: "emails", value: "refund.desk[at]wallet-helpdesk[.]example" }]);
    expect(blocked(g, "write to refund.desk@wallet-helpdesk.example")).toBe(true);
    expect(blocked(g, "write to refund.desk[at]wallet-helpdesk[.]example")).toBe(true);
    expect(blocked(g, "write to someone else")).toBe(false);
  });
  it("a defanged Telegram link is found by its name, as a link or a handle", () => {
    const g = guardOf([{ kind: "ioc_value", ioc: "channels", value: "t[.]me/refund_desk_chan" }]);
    expect(blocked(g, "join t.me/refund_desk_chan")).toBe(true);
    expect(blocked(g, "ask @refund_desk_chan")).toBe(true);
    expect(blocked(g, "join another channel")).toBe(false);
  });
  it("a defanged URL is found written plainly", () => {
    const g = guardOf([{ kind: "ioc_value", ioc: "urls", value: "hxxps://refund-helpdesk[.]example/pay" }]);
    expect(blocked(g, "see https://refund-helpdesk.example/pay")).toBe(true);
  });
  it("a handle with look-alike letters is found written in Latin letters", () => {
    const g = guardOf([{ kind: "ioc_value", ioc: "handles", value: "@\u0455cam_desk_01" }]);
    expect(blocked(g, "ask @scam_desk_01")).toBe(true);
  });
});
