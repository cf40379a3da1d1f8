/**
 * Exports of the 156-node tree (5 children per node, depth 3) to the fakes, each answering in 50 ms.
 * Trello runs with its real limit switched on (100 requests per 10 s per token); its bound is the
 * earliest the last request may go out under that limit: floor((R - 1) / 100) x 10 s + one latency.
 * GitHub runs under its documented limits (80 content-creating requests a minute, 500 an hour; the fake
 * answers more with 403) with the export's real pacing (one write a second): its bound is one second per
 * content-creating request after the first. It takes about five minutes.
 */
import { performance } from "node:perf_hooks";
import { startFakeGitHub } from "../tests/fakes/github";
import { startFakeJira } from "../tests/fakes/jira";
import { startFakeTrello } from "../tests/fakes/trello";
import { waitForExport } from "../tests/support/exports";
import { registerUser, TestClient } from "../tests/support/http-client";
import { seedTree } from "../tests/support/seed";
import { startTestServer } from "../tests/support/server";
import { AS_IN_USE } from "./stats";

const LATENCY = 50;

export async function benchExports() {
  const jira = await startFakeJira();
  jira.addUser({ email: "bench@example.com", apiToken: "t", accountId: "5b10ac8d82e05b22cc7d4ef5" });
  jira.setMode("slow", { delayMs: LATENCY });
  const trello = await startFakeTrello();
  trello.addCredentials({ key: "k", token: "t" });
  trello.setRateLimits({ perToken: 100, perKey: 300, windowMs: 10_000 });
  trello.setMode("slow", { delayMs: LATENCY });
  const github = await startFakeGitHub();
  github.addRepo({ owner: "bench", name: "plan", files: ["README.md"] });
  github.addToken({ token: "ghp_bench", login: "bench", scopes: ["repo"] });
  const server = await startTestServer(
    {
      ...AS_IN_USE,
      JIRA_ALLOWED_ORIGINS: "http://127.0.0.1:*",
      TRELLO_API_URL: trello.url,
      GITHUB_API_URL: github.url,
      // The real pacing (tests run at 20 ms): one content-creating request a second.
      GITHUB_WRITE_INTERVAL_MS: "1000",
      LOG_LEVEL: "silent",
    },
    { databaseUrl: null },
  );
  try {
    const client = new TestClient(server.url);
    const { user } = await registerUser(client);
    const { rootId, count } = await seedTree(server.deps.database, user.id, { fanout: 5, depth: 3 });
    const rows = [];

    let t0 = performance.now();
    let before = jira.requests.length;
    const j = await client.post("/api/jira/start-export", {
      task_id: rootId,
      config: {
        jira_url: jira.url,
        user_email: "bench@example.com",
        api_token: "t",
        account_id: "5b10ac8d82e05b22cc7d4ef5",
        project_name: "Bench",
        project_key: "BENCH",
      },
    });
    const jDone = await waitForExport(client, j.json.export_id, 300_000);
    const jWall = performance.now() - t0;
    const jRequests = jira.requests.length - before;
    rows.push({
      target: "JIRA + Confluence",
      nodes: count,
      created: jDone.result.issues_created,
      "wall ms": jWall.toFixed(0),
      requests: jRequests,
      "requests / item": (jRequests / jDone.result.issues_created).toFixed(3),
      "bound ms": "-",
      ratio: "-",
    });

    t0 = performance.now();
    before = trello.requests.length;
    const t = await client.post("/api/trello/start-export", {
      task_id: rootId,
      config: { board_name: "Bench", trello_api_key: "k", trello_token: "t" },
    });
    const tDone = await waitForExport(client, t.json.export_id, 300_000);
    const tWall = performance.now() - t0;
    const tRequests = trello.requests.length - before;
    const bound = Math.floor((tRequests - 1) / 100) * 10_000 + LATENCY;
    rows.push({
      target: "Trello (100 req / 10 s)",
      nodes: count,
      created: tDone.result.cards_created,
      "wall ms": tWall.toFixed(0),
      requests: tRequests,
      "requests / item": (tRequests / tDone.result.cards_created).toFixed(3),
      "bound ms": bound,
      ratio: (tWall / bound).toFixed(2),
      "429s": trello.requests.filter((r) => r.status === 429).length,
    });
    if (process.env.BENCH_GITHUB !== "0") {
      t0 = performance.now();
      before = github.server.log.length;
      await client.post("/api/github/connect", { access_token: "ghp_bench" });
      const g = await client.post("/api/github/start-export", {
        task_id: rootId,
        config: { repository: "bench/plan" },
      });
      const gDone = await waitForExport(client, g.json.export_id, 1_800_000);
      const gWall = performance.now() - t0;
      const log = github.server.log.slice(before);
      const writes = log.filter((r) => r.method !== "GET").length;
      const gBound = (writes - 1) * 1000;
      rows.push({
        target: "GitHub (80/min, 500/h; 1 write/s)",
        nodes: count,
        created: gDone.result.issues_created,
        "wall ms": gWall.toFixed(0),
        requests: log.length,
        "requests / item": (log.length / gDone.result.issues_created).toFixed(3),
        "bound ms": gBound,
        ratio: (gWall / gBound).toFixed(2),
        "429s": log.filter((r) => r.status === 403 || r.status === 429).length,
      });
    }
    return rows;
  } finally {
    await server.stop();
    await jira.close();
    await trello.close();
    await github.close();
  }
}
