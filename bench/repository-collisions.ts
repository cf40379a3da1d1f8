/**
 * Collisions in parallel waves (issue 42): on each sample repository (tests/fixtures/repositories), its
 * change request planned on its map by the real server (offline planner, PGlite), then the schedule:
 * how many waves hold two leaves that likely change one file (before: nothing looked; after: each such
 * pair flagged in `collisions`, none left unflagged), and how many leaves name files at all.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { mapLocalRepository } from "../src/cli/local-repository";
import { waitForStatus } from "../tests/support/decomposition";
import { registerUser, TestClient } from "../tests/support/http-client";
import { startTestServer } from "../tests/support/server";

const ROOT = "tests/fixtures/repositories";

export async function benchRepositoryCollisions(): Promise<Record<string, string | number>[]> {
  const server = await startTestServer({ REGISTRATIONS_PER_IP_PER_HOUR: "1000" }, { databaseUrl: null });
  try {
    const client = new TestClient(server.url);
    await registerUser(client);
    const rows: Record<string, string | number>[] = [];
    for (const name of readdirSync(ROOT).sort()) {
      const key = JSON.parse(readFileSync(path.join(ROOT, name, "_change.json"), "utf8")) as {
        request: string;
      };
      const map = await mapLocalRepository(path.join(ROOT, name));
      const made = await client.post("/api/tasks", { description: key.request, repository_map: map });
      await waitForStatus(client, made.json.id, ["completed", "failed"]);
      const s = (await client.get(`/api/tasks/${made.json.id}/schedule`)).json as {
        waves: string[][];
        collisions: { wave: number; task_ids: string[] }[];
        files: Record<string, string[]>;
      };
      // Before: pairs of leaves in one wave sharing a confident file, which nothing pointed out.
      let pairs = 0;
      for (const wave of s.waves)
        for (let i = 0; i < wave.length; i++)
          for (let j = i + 1; j < wave.length; j++) {
            const a = new Set(s.files[wave[i]!] ?? []);
            if ((s.files[wave[j]!] ?? []).some((p) => a.has(p))) pairs++;
          }
      const flagged = new Set(s.collisions.flatMap((c) => c.task_ids)).size;
      rows.push({
        repository: name,
        leaves: s.waves.flat().length,
        "leaves with files": Object.keys(s.files).length,
        waves: s.waves.length,
        "colliding pairs in a wave": pairs,
        "leaves flagged": flagged,
      });
    }
    return rows;
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await benchRepositoryCollisions());
