import { setTimeout as sleep } from "node:timers/promises";

/**
 * Turns per key: at most `limit` runs at once for one key (a user, a credential), and, with `minGapMs`,
 * starts at least that far apart; the rest wait in line, holding nothing but their request. So one client
 * that sends many heavy requests takes `limit` places in the process's and the database's queues, and at
 * most 1000/minGapMs starts a second, not as many as it can send (issue 39). A limit of 0 lets every run
 * through at once.
 */
export class Turns {
  private readonly lines = new Map<string, { running: number; waiting: (() => void)[] }>();
  private readonly lastStart = new Map<string, number>();

  constructor(
    readonly limit: number,
    readonly minGapMs = 0,
    /** The clock the pace is kept by (the tests give their own). */
    private readonly clock: { now: () => number; sleep: (ms: number) => Promise<unknown> } = {
      now: Date.now,
      sleep,
    },
  ) {}

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    if (this.limit <= 0) return work();
    let line = this.lines.get(key);
    if (!line) {
      line = { running: 0, waiting: [] };
      this.lines.set(key, line);
    }
    if (line.running >= this.limit) {
      const waiting = line.waiting;
      await new Promise<void>((resolve) => waiting.push(resolve));
    } else line.running += 1;
    try {
      await this.spaced(key);
      return await work();
    } finally {
      // The turn passes to the next in line, or is given back.
      const next = line.waiting.shift();
      if (next) next();
      else if (--line.running === 0) this.lines.delete(key);
    }
  }

  /** Waits until this key's previous start is minGapMs old, and marks this start. */
  private async spaced(key: string) {
    if (this.minGapMs <= 0) return;
    for (;;) {
      const now = this.clock.now();
      const wait = (this.lastStart.get(key) ?? Number.NEGATIVE_INFINITY) + this.minGapMs - now;
      if (wait <= 0) {
        this.lastStart.set(key, now);
        break;
      }
      await this.clock.sleep(wait);
    }
    // Old marks go once there are many: a mark older than the gap holds nothing back.
    if (this.lastStart.size > 10_000) {
      const cutoff = this.clock.now() - this.minGapMs;
      for (const [k, t] of this.lastStart) if (t < cutoff) this.lastStart.delete(k);
    }
  }

  /** Keys with someone running or waiting (the tests read it: a finished line leaves nothing behind). */
  get size(): number {
    return this.lines.size;
  }
}
