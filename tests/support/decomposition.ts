import { type FakeOpenAI, startFakeOpenAI } from "../fakes/openai";
import type { TestClient } from "./http-client";
import { startTestServer, type TestServer } from "./server";
import { waitUntil } from "./wait";

type TreeNode = {
  id: string;
  description: string;
  depth: number;
  status: string;
  is_atomic: boolean;
  complexity_score: number | null;
  story_points: number | null;
  implementation_details: string | null;
  position: number;
  parent_id: string | null;
  depends_on: string[];
  locked: string[];
  requirement_ids: string[];
  estimate_hours: { low: number; likely: number; high: number } | null;
  actual_hours?: number | null;
  children: TreeNode[];
};

/** Polls a task until its status is one of `statuses` (the realtime tests watch events instead). */
export async function waitForStatus(client: TestClient, id: string, statuses: string[], timeoutMs = 30_000) {
  let last: Record<string, any> | null = null;
  return waitUntil(
    async () => {
      last = (await client.get(`/api/tasks/${id}`)).json;
      return statuses.includes(String(last?.status)) && last;
    },
    {
      timeoutMs,
      intervalMs: 100,
      message: () =>
        `task ${id} did not reach ${statuses.join("/")}; last: ${JSON.stringify(last)?.slice(0, 400)}`,
    },
  );
}

export function flatten(node: TreeNode): TreeNode[] {
  return [node, ...node.children.flatMap(flatten)];
}

export type { TreeNode };

/**
 * A test server that plans with the fake OpenAI-compatible model (tests/fakes/openai.ts): the fake is
 * started first and the server pointed at it. `env` adds or overrides settings (retries, timeouts...).
 */
export async function startModelBackedServer(
  env: Record<string, string> = {},
  fake: Parameters<typeof startFakeOpenAI>[0] = undefined,
): Promise<{ llm: FakeOpenAI; server: TestServer; stop(): Promise<void> }> {
  const llm = await startFakeOpenAI(fake);
  const server = await startTestServer({
    OPENAI_API_KEY: llm.apiKey,
    OPENAI_BASE_URL: llm.url,
    LLM_MODEL: "fake-gpt",
    LLM_CONCURRENCY: "4",
    ...env,
  });
  return {
    llm,
    server,
    async stop() {
      await server.stop();
      await llm.close();
    },
  };
}

/** A prompt or brief read without the markers around people's text (lib/data-block.ts), as it reads to a person. */
export const withoutDataMarkers = (text: string) => text.replace(/^<<<(?:END )?DATA(?: [^\n]*)?>>>\n?/gm, "");
