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
