/**
 * The first owner of each id, for the duplicate checks across a whole index (`duplicate-event-id`,
 * `duplicate-version-id`): 50,000 events carry about 150,000 ids, and inserting that many fresh strings into a
 * `Map` was the largest part of the consistency checks' time.
 *
 * An id of the form `<prefix><1 to 12 lowercase hex digits>` (every event and version id the format's patterns
 * allow, up to that length) is stored as the number `digits × 2^48 + value` in an open-addressing table of typed
 * arrays: no string is kept and nothing is allocated per id. Distinct ids give distinct numbers (the digit count
 * keeps leading zeros apart) and an id always takes the same path, so two ids are the same exactly when their
 * entries are. Any other id goes to a `Map` of its string.
 */

const SLOT_LOW = 2 ** 32;
const SHIFT = 2 ** 48;

export class IdTable {
  private keys = new Float64Array(1 << 12);
  private owners = new Int32Array(1 << 12);
  private used = 0;
  private readonly others = new Map<string, number>();

  constructor(private readonly prefix: string) {}

  /** Records `owner` as the owner of `id` unless it has one; returns the earlier owner, or -1. */
  claim(id: string, owner: number): number {
    const key = this.numeric(id);
    if (key < 0) {
      const first = this.others.get(id);
      if (first !== undefined) return first;
      // A copy that does not keep the string it was sliced from alive.
      this.others.set((" " + id).slice(1), owner);
      return -1;
    }
    const mask = this.keys.length - 1;
    let slot = hash(key) & mask;
    for (;;) {
      const k = this.keys[slot];
      if (k === key) return this.owners[slot];
      if (k === 0) break;
      slot = (slot + 1) & mask;
    }
    this.keys[slot] = key;
    this.owners[slot] = owner;
    if (++this.used * 2 > this.keys.length) this.grow();
    return -1;
  }

  /** The number of `<prefix><1-12 lowercase hex digits>`, else -1. */
  private numeric(id: string): number {
    const p = this.prefix;
    const digits = id.length - p.length;
    if (digits < 1 || digits > 12 || !id.startsWith(p)) return -1;
    let v = 0;
    for (let i = p.length; i < id.length; i++) {
      const c = id.charCodeAt(i);
      const d = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;
      if (d < 0) return -1;
      v = v * 16 + d;
    }
    return digits * SHIFT + v;
  }

  private grow(): void {
    const keys = this.keys;
    const owners = this.owners;
    this.keys = new Float64Array(keys.length * 2);
    this.owners = new Int32Array(keys.length * 2);
    const mask = this.keys.length - 1;
    for (let s = 0; s < keys.length; s++) {
      const key = keys[s];
      if (key === 0) continue;
      let slot = hash(key) & mask;
      while (this.keys[slot] !== 0) slot = (slot + 1) & mask;
      this.keys[slot] = key;
      this.owners[slot] = owners[s];
    }
  }
}

/** Mixes both 32-bit halves of a key below 2^53. */
function hash(key: number): number {
  const low = key >>> 0;
  const high = (key / SLOT_LOW) >>> 0;
  let h = Math.imul(low ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 15;
  return Math.imul(h, 0xc2b2ae35) ^ (h >>> 13);
}
