/**
 * A feed worker thread: opens capsules of the same sealed store with the store key it is handed (read only: no
 * signing key), loads the same pack (checked by digest), and returns the feed item of every capsule id it is
 * sent. Plaintext stays inside the thread's memory; only outward lines, reasons and error messages (which name
 * capsules and rules, never values) are posted back.
 */
import { parentPort, workerData } from "node:worker_threads";
import { storeKey } from "../../src/crypto/seal.js";
import { loadPackFile } from "../../published/pack/file.js";
import { capsuleOpener, type CapsuleOpener } from "../store/open-capsule.js";
import { FeedError } from "./errors.js";
import { feedItem } from "./feed.js";
import type { FromWorker, ToWorker, WorkerInit, WorkerItem } from "./worker-protocol.js";

const port = parentPort!;
const init = workerData as WorkerInit;
const post = (m: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);

function start(): CapsuleOpener | undefined {
  try {
    const pack = loadPackFile(init.packFile);
    if (pack.sha256 !== init.packSha256) {
      post({ type: "fatal", message: `the intelligence pack ${init.packFile} changed while the feed was running` });
      return undefined;
    }
    const store = capsuleOpener(init.home, storeKey(init.storeKey));
    port.on("message", (m: ToWorker) => {
      const items: WorkerItem[] = [];
      const transfer: ArrayBuffer[] = [];
      for (const id of m.ids) {
        try {
          const item = feedItem(store, id, pack, init.view);
          items.push({ id, ...item });
          if (item.status === "emitted") transfer.push(item.line.buffer as ArrayBuffer);
        } catch (e) {
          items.push({ id, status: "error", message: e instanceof FeedError ? e.message : `capsule ${id}: ${(e as Error).message}` });
        }
      }
      post({ type: "results", items }, transfer);
    });
    post({ type: "ready" });
    return store;
  } catch (e) {
    post({ type: "fatal", message: (e as Error).message });
    return undefined;
  }
}

start();
