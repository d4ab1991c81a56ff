/**
 * The team queue on PostgreSQL (issue 34 "Speed"): publishing 1,000 capsules ≤ 10 s, a reviewer's `review list`
 * over a 10,000-candidate team queue ≤ 1 s warm, an approval round trip on loopback ≤ 50 ms.
 *
 * A real PostgreSQL server (test/helpers/postgres-server.ts: Debian's binaries, 127.0.0.1, fsync off) and a team
 * made with the private side's own steps (test/helpers/team-homes.ts): the admin (a lead), two investigators and
 * three reviewers, approvals = 2. Capsule and candidate payloads are opaque bytes of a typical size (3 KB and 1 KB):
 * the sealing cost depends only on their size, and the `team` command's capsule-store door is not measured here.
 *
 * Rows (in process; the `review list` process row waits for the `team` CLI):
 * - publish: N capsules with their candidates sealed for the 6 members, queued (outbox files) and flushed
 *   (`flushOutbox`), and the database's share alone (`putObjects` of the same number of opaque objects and wraps);
 * - review list: a reviewer's verified view of the queue (`readTeamView` warm, from the member's sealed view cache,
 *   as `review list` reads it, + `teamQueue`), over the N candidates published, then over 10,000 (the queue grown
 *   with publications sealed straight to the members: the outbox's envelopes without its files), with the first
 *   (cold) read beside it; and the database's share of a cold read at 10,000 (every page of `objectsFor` for one
 *   member: 20,000 objects of opaque bytes);
 * - approval: one `decideOnTeam` (reads and verifies the view warm, appends one record) on the 10,000-candidate queue, and
 *   the database's share alone (`appendRecord` on the head plus `records` after it).
 * `EVIDENCE_BRIDGE_BENCH_TEAM_CAPSULES` sets N (default 1,000) and `EVIDENCE_BRIDGE_BENCH_TEAM_QUEUE` the large queue
 * (default 10,000) for a shorter run; the row names say both.
 * Without a PostgreSQL server the group prints one line and returns no rows.
 */
import { createHash, randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { PostgresTeamQueue } from "../bridge/team/postgres-queue.js";
import { parseTeamUrl } from "../bridge/team/database-url.js";
import { newObjectId, sealObject } from "../capsules/team/envelope.js";
import { enqueuePublication, flushOutbox, recipientsOf } from "../capsules/team/outbox.js";
import { publicationPayload } from "../capsules/team/publication.js";
import type { TeamObjectIn } from "../capsules/team/queue-port.js";
import { decideOnTeam, teamQueue } from "../capsules/team/team-review.js";
import { readTeamState } from "../capsules/team/team-state.js";
import { readTeamView } from "../capsules/team/team-view.js";
import { postgresBin, startPostgres } from "../test/helpers/postgres-server.js";
import { makeTeam, teamRoot } from "../test/helpers/team-homes.js";
import { median, type BenchResult } from "./harness.js";

const N = Number(process.env.EVIDENCE_BRIDGE_BENCH_TEAM_CAPSULES ?? 1000);
const BIG_QUEUE = Number(process.env.EVIDENCE_BRIDGE_BENCH_TEAM_QUEUE ?? 10_000);
const HOUR = "2026-11-28T22:00:00Z";

const hex = (n: number) => randomBytes(n).toString("hex");

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

export async function benchTeam(): Promise<BenchResult[]> {
  if (postgresBin === undefined) {
    process.stderr.write("bench team: no PostgreSQL server (/usr/lib/postgresql/<13+>/bin); skipped\n");
    return [];
  }
  const server = await startPostgres();
  const root = teamRoot();
  const queues: PostgresTeamQueue[] = [];
  const open = async () => {
    const q = await PostgresTeamQueue.open(parseTeamUrl(await server.database()), { create: true });
    queues.push(q);
    return q;
  };
  try {
    const rows: BenchResult[] = [];
    const port = await open();
    const team = await makeTeam(port, root, { name: "Lea Lead" }, [
      { name: "Ivy Investigator", role: "investigator" },
      { name: "Ian Investigator", role: "investigator" },
      { name: "Rita Reviewer", role: "reviewer" },
      { name: "Rob Reviewer", role: "reviewer" },
      { name: "Rae Reviewer", role: "reviewer" },
    ]);
    const [ivy, , rita, rob] = team.members;

    // Publish: N capsules by one investigator.
    const publisher = await readTeamView(ivy.home, port, ivy.keys, readTeamState(ivy.home));
    const members = publisher.membership.members.length;
    const capsules = Array.from({ length: N }, () => randomBytes(3000));
    const publish = await timed(async () => {
      for (const bytes of capsules) {
        const capsuleSha256 = createHash("sha256").update(bytes).digest("hex");
        enqueuePublication(ivy.home, ivy.keys, publisher.membership, { capsuleSha256, capsuleBytes: bytes, candidate: { bytes: randomBytes(1000), typologyMatchVisible: false } });
      }
      return flushOutbox(ivy.home, port, ivy.keys, publisher.membership);
    });
    if (publish.value.inserted !== 2 * N) throw new Error(`bench team: ${publish.value.inserted} objects published, expected ${2 * N}`);
    rows.push({
      name: `team publish: ${N} capsules + candidates sealed for ${members} members, queued and flushed to PostgreSQL`,
      median_ms: publish.ms,
      figures: { runs: 1, "ms per capsule": publish.ms / N },
      target: "≤ 10000 ms for 1,000",
      met: (publish.ms * 1000) / N <= 10_000,
    });

    // The database's share of publishing: the same objects as opaque bytes, batches of 2 (one capsule each).
    const dbOnly = await open();
    const opaque = (): TeamObjectIn => ({ id: hex(16), kind: "capsule", hour: HOUR, body: randomBytes(3100), wraps: publisher.membership.members.map((m) => ({ recipient: m.fingerprint, wrapped: randomBytes(104) })) });
    const share = await timed(async () => {
      for (let i = 0; i < N; i++) await dbOnly.putObjects([opaque(), opaque()]);
    });
    rows.push({ name: `team publish, database share: ${N} putObjects of 2 opaque objects with ${members} wraps each`, median_ms: share.ms, figures: { "ms per call": share.ms / N } });

    // review list, warm: a reviewer's verified view of the N-candidate queue.
    // As `review list` reads: warm, from this member's sealed view cache (capsules/team/view-cache.ts).
    const list = async () => teamQueue(await readTeamView(rita.home, port, rita.keys, readTeamState(rita.home), "warm")).length;
    if ((await list()) !== N) throw new Error("bench team: the reviewer does not see every candidate");
    const listTimes: number[] = [];
    for (let i = 0; i < 3; i++) listTimes.push((await timed(list)).ms);
    rows.push({
      name: `review list (in process, warm): verified view of a ${N}-candidate team queue`,
      median_ms: median(listTimes),
      figures: { runs: 3 },
    });

    // review list at 10,000 candidates: the queue grown with publications sealed straight to the members (the same
    // envelopes the outbox makes, without its files), then the reviewer's cold read and warm reads.
    const recipients = recipientsOf(publisher.membership);
    for (let have = N; have < BIG_QUEUE; ) {
      const batch: TeamObjectIn[] = [];
      for (let k = 0; k < 250 && have < BIG_QUEUE; k++, have++) {
        const capsuleBytes = randomBytes(3000);
        const capsuleObject = newObjectId();
        batch.push(sealObject({ id: capsuleObject, kind: "capsule", hour: HOUR, payload: capsuleBytes, author: ivy.keys, recipients }));
        const payload = publicationPayload({ capsuleObject, capsuleSha256: createHash("sha256").update(capsuleBytes).digest("hex"), candidateBytes: randomBytes(1000), typologyMatchVisible: false });
        batch.push(sealObject({ id: newObjectId(), kind: "candidate", hour: HOUR, payload, author: ivy.keys, recipients }));
      }
      await port.putObjects(batch);
    }
    const cold = await timed(async () => teamQueue(await readTeamView(rita.home, port, rita.keys, readTeamState(rita.home))).length);
    if (cold.value !== BIG_QUEUE) throw new Error(`bench team: the reviewer sees ${cold.value} candidates, expected ${BIG_QUEUE}`);
    await list();
    const bigTimes: number[] = [];
    for (let i = 0; i < 3; i++) bigTimes.push((await timed(list)).ms);
    rows.push({
      name: `review list (in process, warm): verified view of a ${BIG_QUEUE}-candidate team queue`,
      median_ms: median(bigTimes),
      figures: { runs: 3, "cold read ms": cold.ms },
      target: "≤ 1000 ms",
      met: median(bigTimes) <= 1000,
    });

    // The database's share of a cold read at 10,000 candidates (and their 10,000 capsules): every page for one member.
    const big = await open();
    const me = rita.keys.fingerprint;
    for (let i = 0; i < 2 * BIG_QUEUE; i += 1000) {
      await big.putObjects(Array.from({ length: 1000 }, () => ({ id: hex(16), kind: i % 2 ? "candidate" : "capsule", hour: HOUR, body: randomBytes(i % 2 ? 1100 : 3100), wraps: [{ recipient: me, wrapped: randomBytes(104) }] }) as TeamObjectIn));
    }
    const readAll = async () => {
      let after = 0;
      let n = 0;
      for (;;) {
        const page = await big.objectsFor(me, after, 1000);
        n += page.length;
        if (page.length < 1000) return n;
        after = page[page.length - 1].seq;
      }
    };
    await readAll();
    const readTimes: number[] = [];
    for (let i = 0; i < 5; i++) readTimes.push((await timed(readAll)).ms);
    rows.push({ name: `review list cold, database share: every objectsFor page of a ${BIG_QUEUE}-candidate queue (${2 * BIG_QUEUE} objects, opaque bytes)`, median_ms: median(readTimes), figures: { runs: 5 } });

    // Approval round trip: one decision on the N-candidate queue, by two reviewers in turn.
    const queue = teamQueue(await readTeamView(rita.home, port, rita.keys, readTeamState(rita.home), "warm"));
    // Rob's first read of the grown queue is cold; the decisions measured read warm, as a reviewer at work does.
    await readTeamView(rob.home, port, rob.keys, readTeamState(rob.home), "warm");
    const decideTimes: number[] = [];
    for (let i = 0; i < 6; i++) {
      const who = i % 2 === 0 ? rita : rob;
      const id = queue[Math.floor(i / 2)].publication.capsuleSha256;
      decideTimes.push((await timed(() => decideOnTeam(who.home, port, who.keys, { id, decision: "APPROVED_FOR_RELEASE", reason: "corroborated" }))).ms);
    }
    rows.push({
      name: `approval round trip on loopback (decideOnTeam: warm verified view + append), ${BIG_QUEUE}-candidate queue`,
      median_ms: median(decideTimes),
      figures: { runs: 6 },
      target: "≤ 50 ms",
      met: median(decideTimes) <= 50,
    });
    // The database's share: append on the head, then read what came after.
    const chain = await open();
    let head = "0".repeat(64);
    let seq = 0;
    const rtTimes: number[] = [];
    for (let i = -3; i < 15; i++) {
      const body = randomBytes(600);
      const digest = createHash("sha256").update(body).digest("hex");
      const t = await timed(async () => {
        if ((await chain.appendRecord(head, digest, body)) !== "appended") throw new Error("bench team: append conflict with no other writer");
        const after = await chain.records(seq);
        seq = after[after.length - 1].seq;
      });
      head = digest;
      if (i >= 0) rtTimes.push(t.ms);
    }
    rows.push({ name: "approval round trip, database share: appendRecord on the head + records after it", median_ms: median(rtTimes), figures: { runs: 15 } });
    return rows;
  } finally {
    for (const q of queues) await q.close().catch(() => undefined);
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
}
