import { afterEach, vi } from "vitest";

// An unexpected console.error in a test is a bug we want to see, not noise (epic-stack habit).
const spy = vi.spyOn(console, "error");
afterEach(() => {
  const calls = spy.mock.calls.slice();
  spy.mockClear();
  if (calls.length > 0)
    throw new Error(`console.error was called: ${calls.map((c) => String(c[0])).join("; ")}`);
});
