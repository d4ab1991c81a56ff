/**
 * Help fits 100 columns without cutting a word (issue 30 item 5): the command list and every command's usage, as
 * printed. The reflow keeps every word in order (compared with the text as written) and never adds "…".
 */
import { describe, expect, test } from "vitest";
import { fitColumns, HELP_WIDTH } from "../../../bridge/cli/help.js";
import { runCli } from "../../helpers/cli.js";

const words = (t: string) => t.split(/\s+/).filter((w) => w !== "");

async function commandNames(): Promise<string[]> {
  const list = (await runCli(["help"])).stdout;
  return list
    .split("\n")
    .filter((l) => /^ {2}[a-z]/.test(l))
    .map((l) => l.trim().split(/\s{2,}/)[0])
    .filter((n) => n !== "help [COMMAND]");
}

describe("help", () => {
  test("the command list: every line within 100 columns, one line per command, no '…'", async () => {
    const r = await runCli(["help"]);
    for (const line of r.stdout.split("\n")) expect(line.length, line).toBeLessThanOrEqual(HELP_WIDTH);
    expect(r.stdout).not.toContain("…");
    expect((await commandNames()).length).toBeGreaterThan(30);
  });

  test("every command's usage fits 100 columns, with every word of the text as written, in order", async () => {
    const { importCommandModule } = await import("../../../bridge/cli/command-modules.js");
    const { COMMANDS } = await import("../../../bridge/cli/main.js");
    const names = await commandNames();
    expect(names.sort()).toEqual(Object.keys(COMMANDS).sort());
    for (const name of names) {
      const r = await runCli(["help", ...name.split(" ")]);
      expect(r.code, name).toBe(0);
      for (const line of r.stdout.split("\n")) expect(line.length, `${name}: ${line}`).toBeLessThanOrEqual(HELP_WIDTH);
      const [file, exported] = COMMANDS[name];
      const written = ((await importCommandModule(file)) as Record<string, { help: string }>)[exported].help;
      expect(words(r.stdout), name).toEqual(words(written));
      const flagHelp = await runCli([...name.split(" "), "--help"]);
      expect(flagHelp.stdout, name).toBe(r.stdout);
    }
  });

  test("fitColumns: breaks at spaces, carries into the same paragraph or option, keeps short lines as written", () => {
    const para = `${"word ".repeat(30).trim()}\nnext line\n\n  --flag X   ${"desc ".repeat(27).trim()}\n             more desc\n  --other    y`;
    const fitted = fitColumns(para, 40);
    for (const l of fitted.split("\n")) expect(l.length).toBeLessThanOrEqual(40);
    expect(words(fitted)).toEqual(words(para));
    expect(fitted).toContain("\n             desc");
    expect(fitted).toMatch(/\n {13}desc desc more desc\n {2}--other {4}y$/);
    expect(fitColumns("short\n  kept   as is", 40)).toBe("short\n  kept   as is");
    const long = "x".repeat(50);
    expect(fitColumns(long, 40)).toBe(long);
  });
});
