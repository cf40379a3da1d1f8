import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchRepositoryContext } from "../../src/server/engine/grounding";
import { testLogger } from "../support/server";

/**
 * GitHub answers a renamed repository with a 301 to its new API path; grounding follows that within
 * GitHub's API origin only, so a token never travels to a host a redirect (or a hostile repository
 * name) points at.
 */
type Seen = { path: string; authorization: string | undefined };
let api: Server;
let elsewhere: Server;
const apiSeen: Seen[] = [];
const elsewhereSeen: Seen[] = [];
let apiUrl: string;
let elsewhereUrl: string;

const listen = (s: Server) =>
  new Promise<string>((resolve) =>
    s.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(s.address() as AddressInfo).port}`)),
  );
const record = (list: Seen[], req: IncomingMessage) =>
  list.push({ path: req.url ?? "", authorization: req.headers.authorization });

beforeAll(async () => {
  elsewhere = createServer((req, res) => {
    record(elsewhereSeen, req);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ full_name: "evil/repo", default_branch: "main" }));
  });
  elsewhereUrl = await listen(elsewhere);
  api = createServer((req, res) => {
    record(apiSeen, req);
    const url = req.url ?? "";
    if (url === "/repos/acme/old-name") {
      res.writeHead(301, { location: "/repos/acme/new-name" });
      return res.end();
    }
    if (url === "/repos/acme/moved-away") {
      res.writeHead(301, { location: `${elsewhereUrl}/repos/evil/repo` });
      return res.end();
    }
    if (url === "/repos/acme/new-name") {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(
        JSON.stringify({ full_name: "acme/new-name", default_branch: "main", description: "Renamed" }),
      );
    }
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ message: "Not Found" }));
  });
  apiUrl = await listen(api);
});
afterAll(async () => {
  await new Promise((r) => api.close(r));
  await new Promise((r) => elsewhere.close(r));
});

const deps = () => ({
  config: { GITHUB_API_URL: apiUrl } as never,
  log: testLogger("silent"),
});

describe("GitHub grounding and redirects", () => {
  it("follows a renamed repository's redirect within the API origin, with the token", async () => {
    const ctx = await fetchRepositoryContext(deps(), "https://github.com/acme/old-name", "ghp_secret_token");
    expect(ctx.summary).toContain("acme/new-name");
    expect(apiSeen.find((s) => s.path === "/repos/acme/new-name")?.authorization).toBe(
      "Bearer ghp_secret_token",
    );
  });

  it("never follows a redirect to another host, so the token stays home", async () => {
    const ctx = await fetchRepositoryContext(
      deps(),
      "https://github.com/acme/moved-away",
      "ghp_secret_token",
    );
    expect(ctx.summary).toBeNull();
    expect(ctx.warning).toContain("acme/moved-away");
    expect(elsewhereSeen).toHaveLength(0);
  });

  it.each([
    "https://github.com/acme/..",
    "https://github.com/../acme",
    "https://github.com/acme/../../user",
    "https://github.com/-acme/shop",
  ])("refuses %s without calling GitHub", async (url) => {
    const before = apiSeen.length;
    const ctx = await fetchRepositoryContext(deps(), url, "ghp_secret_token");
    expect(ctx.summary).toBeNull();
    expect(ctx.warning).toMatch(/is not a GitHub repository URL/);
    expect(apiSeen.length).toBe(before);
  });
});
