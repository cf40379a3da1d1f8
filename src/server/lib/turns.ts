/**
 * Turns per key: at most `limit` runs at once for one key (a user, a credential); the rest wait in line,
 * holding nothing but their request. So one client that sends many heavy requests at once takes `limit`
 * places in the process's and the database's queues, not as many as it sends (issue 39).
 */
export class Turns {
  private readonly lines = new Map<string, { running: number; waiting: (() => void)[] }>();

  constructor(readonly limit: number) {}

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
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
      return await work();
    } finally {
      // The turn passes to the next in line, or is given back.
      const next = line.waiting.shift();
      if (next) next();
      else if (--line.running === 0) this.lines.delete(key);
    }
  }

  /** Keys with someone running or waiting (the tests read it: a finished line leaves nothing behind). */
  get size(): number {
    return this.lines.size;
  }
}
