import { describe, expect, it } from "vitest";
import { Turns } from "./turns";

/** A run that waits until it is let go, recording how many of its key ran at once. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe("Turns", () => {
  it("runs at most `limit` at once for one key, the rest in the order they came", async () => {
    const turns = new Turns(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const gates = Array.from({ length: 5 }, gate);
    const runs = gates.map((g, i) =>
      turns.run("alice", async () => {
        started.push(i);
        running += 1;
        most = Math.max(most, running);
        await g.opened;
        running -= 1;
        return i;
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1]);
    gates[1]!.open();
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.open();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    // A finished line leaves nothing behind.
    expect(turns.size).toBe(0);
  });

  it("never makes one key wait for another's", async () => {
    const turns = new Turns(1);
    const held = gate();
    const alice = turns.run("alice", () => held.opened);
    let bobRan = false;
    await turns.run("bob", async () => {
      bobRan = true;
    });
    expect(bobRan).toBe(true);
    held.open();
    await alice;
  });

  it("gives the turn on when a run fails", async () => {
    const turns = new Turns(1);
    await expect(turns.run("alice", () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await turns.run("alice", async () => "next")).toBe("next");
    expect(turns.size).toBe(0);
  });
});

describe("Turns with a pace", () => {
  /** A clock that moves only when a run sleeps: the pace is checked without timing anything. */
  function fakeClock() {
    let now = 1_000;
    const slept: number[] = [];
    return {
      slept,
      now: () => now,
      sleep: async (ms: number) => {
        slept.push(ms);
        now += ms;
      },
    };
  }

  it("starts one key's runs at least minGapMs apart, and another key's at once", async () => {
    const clock = fakeClock();
    const turns = new Turns(2, 100, clock);
    let ran = 0;
    await Promise.all(
      Array.from({ length: 4 }, () =>
        turns.run("alice", async () => {
          ran += 1;
        }),
      ),
    );
    expect(ran).toBe(4);
    // Four starts are three gaps: the first goes at once, each of the others waits out the pace.
    expect(clock.slept.reduce((a, b) => a + b, 0)).toBe(300);
    const before = clock.slept.length;
    await turns.run("bob", async () => {});
    expect(clock.slept.length).toBe(before);
  });

  it("with a limit of 0, lets everything through at once", async () => {
    const clock = fakeClock();
    const turns = new Turns(0, 1000, clock);
    await Promise.all(Array.from({ length: 3 }, () => turns.run("alice", async () => {})));
    expect(clock.slept).toEqual([]);
  });
});
