import { setTimeout as sleep } from "node:timers/promises";
import type { TestClient } from "./http-client";

/** Polls an export until it completes or fails. */
export async function waitForExport(client: TestClient, id: string, timeoutMs = 60_000) {
  const start = Date.now();
  let last: Record<string, any> | null = null;
  while (Date.now() - start < timeoutMs) {
    const res = await client.get(`/api/exports/${id}`);
    last = res.json;
    if (res.json?.status === "completed" || res.json?.status === "failed") return res.json;
    await sleep(100);
  }
  throw new Error(`export ${id} did not finish in ${timeoutMs} ms; last: ${JSON.stringify(last)}`);
}
