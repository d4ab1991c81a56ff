/**
 * The MCP prompt `triage_message`: walks a model through read → assess → candidates for one pasted message, with
 * the closed vocabularies it must use and the privacy facts it should state.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

export const TRIAGE_PROMPT = "triage_message";

export function triageText(message: string): string {
  return `You are helping an analyst record a suspicious message privately with evidence-bridge.

1. Read the message below carefully. Decide, only from what it says:
   - which detector signals are present (assess_message's schema lists the 45 names; use none you are unsure of);
   - which threat rules apply (one finding per rule, a tier within the rule's cap, the evidence classes, and for each
     class except contact the exact words of the message that show it - quote, do not paraphrase);
   - the surface and authorization (ask the analyst if you do not know where the message came from).
2. Optionally call match_typologies with the text and your signals to see which public typologies it fits.
3. Call assess_message with message_text (exactly as pasted) and your judgement. Do not invent IOCs: the bridge
   extracts handles, phones, channels, wallets, e-mails and URLs itself; add an IOC only if you noticed one it missed.
   If the message has phone numbers without a country code and you know the country they belong to (the message
   does not name it), pass region (e.g. ID, RU, VN). Set retain_message only if the analyst asks to keep the text.
4. Report the capsule id, the tiers and the outward candidate preview. If the message was already recorded, say so
   and ask before passing supersede: true.
5. Call get_candidates to show what a human reviewer will see. Say plainly: reviews and exports happen at the
   command line by a human; nothing is published automatically; this conversation (and so the message) has already
   been seen by this client and its model provider - evidence-bridge keeps it out of the public service, out of
   plaintext on disk and out of every outward channel.

The message:
<message>
${message}
</message>`;
}

export function registerPrompts(mcp: McpServer): void {
  mcp.registerPrompt(
    TRIAGE_PROMPT,
    {
      title: "Triage a suspicious message",
      description: "Walks through reading a pasted message, recording it privately with assess_message, and showing the outward candidates.",
      argsSchema: { message: z.string().describe("the suspicious message, pasted as received") },
    },
    ({ message }) => ({ messages: [{ role: "user", content: { type: "text", text: triageText(message) } }] }),
  );
}
