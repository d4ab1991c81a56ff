/**
 * The team queue through the built CLI, as the team CLI, export and page tests drive it: one command for a member's
 * data directory (with `--team URL` when given, the example pack pinned), the check that a command succeeded with
 * nothing on stderr but the member-fingerprint line, and joining by request and invitation files in the member's
 * directory.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { PACK_FILE } from "../capsules/feed/store-fixtures.js";
import { runCli, type RunResult } from "./cli.js";

export function teamCli(home: string, url: string | undefined, ...args: string[]): Promise<RunResult> {
  return runCli(["--home", home, ...(url === undefined ? [] : ["--team", url]), ...args], { env: { EVIDENCE_BRIDGE_PACK: PACK_FILE } });
}

export function ok(r: RunResult): RunResult {
  expect(r.stderr.replace(/^member fingerprint.*\n$/, "")).toBe("");
  expect(r.code).toBe(0);
  return r;
}

/** `team join --name`, the admin's `team invite --role`, then `team join INVITATION`; the last result, checked ok. */
export async function joinTeam(admin: string, url: string, home: string, name: string, role: string): Promise<RunResult> {
  const request = join(home, "request");
  writeFileSync(request, ok(await teamCli(home, undefined, "team", "join", "--name", name)).stdout);
  const invite = await teamCli(admin, url, "team", "invite", request, "--role", role);
  expect(invite.code).toBe(0);
  const invitation = join(home, "invitation");
  writeFileSync(invitation, invite.stdout);
  return ok(await teamCli(home, undefined, "team", "join", invitation));
}
