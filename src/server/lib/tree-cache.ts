import { Turns } from "./turns";

/**
 * The cache behind whole-plan reads (services/tasks/tree-reads.ts, issue 39): answers kept by a key that
 * ends in the plan's version, least recently used dropped first within TREE_CACHE_MB, an older version of
 * a key dropped when a newer one is kept, and one build per key however many readers ask at once.
 */

export type Entry = { value: object; bytes: number };

/**
 * Whole-plan reads one user may have running at once in this process; the rest wait their turn, holding
 * nothing. Eight clients reading a big plan over and over then take two turns in the database's queue, not
 * eight, and other users' reads keep theirs.
 */
export const TREE_READS_PER_USER = 2;

export class TreeCache {
  private readonly entries = new Map<string, Entry>();
  private readonly building = new Map<string, Promise<Entry>>();
  private bytes = 0;
  /** Builds started (not served from the cache or joined): what the tests and the benchmark count. */
  builds = 0;

  /** Whole-plan reads running per user (TREE_READS_PER_USER at once). */
  readonly turns = new Turns(TREE_READS_PER_USER);

  constructor(private readonly maxBytes: number) {}

  async get(key: string, build: () => Promise<Entry>): Promise<object> {
    // Off: every read builds its own, as before the cache.
    if (this.maxBytes === 0) {
      this.builds += 1;
      return (await build()).value;
    }
    const hit = this.entries.get(key);
    if (hit) {
      // Most recently used last: Map keeps insertion order.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value;
    }
    const pending = this.building.get(key);
    if (pending) return (await pending).value;
    this.builds += 1;
    const made = build().finally(() => this.building.delete(key));
    this.building.set(key, made);
    const entry = await made;
    this.keep(key, entry);
    return entry.value;
  }

  private keep(key: string, entry: Entry) {
    if (entry.bytes > this.maxBytes) return;
    // An older version of the same read is of no more use.
    const stem = key.slice(0, key.lastIndexOf(":"));
    for (const [k, e] of this.entries) {
      if (k.startsWith(`${stem}:`)) this.drop(k, e);
    }
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(k, e);
    }
  }

  private drop(key: string, entry: Entry) {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}

export const createTreeCache = (maxMegabytes: number) => new TreeCache(maxMegabytes * 1024 * 1024);
