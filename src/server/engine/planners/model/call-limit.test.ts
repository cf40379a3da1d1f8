import { describe, expect, it } from "vitest";
import { waitUntil } from "../../../../../tests/support/wait";
import { callLimit } from "./call-limit";

describe("callLimit", () => {
  it("runs at most `limit` calls at once and lets the others wait their turn", async () => {
    const gate = callLimit(2);
    let active = 0;
    let most = 0;
    const slow = async (i: number) => {
      active++;
      most = Math.max(most, active);
      await new Promise((r) => setTimeout(r, 20));
      active--;
      return i;
    };
    const results = await Promise.all(Array.from({ length: 7 }, (_, i) => gate(undefined, () => slow(i))));
    expect(results).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(most).toBe(2);
  });

  it("frees the slot of a call that failed", async () => {
    const gate = callLimit(1);
    for (let i = 0; i < 3; i++)
      await expect(
        gate(undefined, async () => {
          throw new Error("provider down");
        }),
      ).rejects.toThrow("provider down");
    await expect(gate(undefined, async () => "answered")).resolves.toBe("answered");
  });

  it("lets a call whose job is cancelled leave the line, and hands the slot to the next in order", async () => {
    const gate = callLimit(1);
    const order: string[] = [];
    const gates: Array<() => void> = [];
    const held = (name: string) => () => {
      order.push(name);
      return new Promise<string>((r) => gates.push(() => r(name)));
    };
    const first = gate(undefined, held("first"));
    const cancel = new AbortController();
    const cancelled = gate(cancel.signal, held("cancelled"));
    const third = gate(undefined, held("third"));
    cancel.abort(new Error("cancelled"));
    await expect(cancelled).rejects.toThrow("cancelled");
    await waitUntil(() => gates.length === 1, { message: "the first call started" });
    gates.shift()!();
    await expect(first).resolves.toBe("first");
    await waitUntil(() => gates.length === 1, { message: "the third call started" });
    gates.shift()!();
    await expect(third).resolves.toBe("third");
    expect(order).toEqual(["first", "third"]);
  });

  it("refuses a call whose job was cancelled before it asked", async () => {
    const gate = callLimit(1);
    const cancel = new AbortController();
    cancel.abort(new Error("gone"));
    let ran = false;
    await expect(
      gate(cancel.signal, async () => {
        ran = true;
      }),
    ).rejects.toThrow("gone");
    expect(ran).toBe(false);
  });
});
