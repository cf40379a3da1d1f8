import type { TestClient } from "./http-client";
import { waitUntil } from "./wait";

/** Polls an export until it completes or fails. */
export async function waitForExport(client: TestClient, id: string, timeoutMs = 60_000) {
  let last: Record<string, any> | null = null;
  return waitUntil(
    async () => {
      last = (await client.get(`/api/exports/${id}`)).json;
      return (last?.status === "completed" || last?.status === "failed") && last;
    },
    {
      timeoutMs,
      intervalMs: 100,
      message: () => `export ${id} did not finish; last: ${JSON.stringify(last)}`,
    },
  );
}
