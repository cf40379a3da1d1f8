import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { IntegrationError } from "../../src/server/integrations/errors";
import { githubClient } from "../../src/server/integrations/github/client";
import { type FakeGitHub, startFakeGitHub } from "../fakes/github";
import { testLogger } from "../support/server";

/**
 * The one GitHub client (src/server/integrations/github/client.ts) against the fake GitHub: it waits out
 * secondary rate limits as GitHub asks (Retry-After), gives up at once when the wait is over its cap
 * (never hammering), paces writes, and words failures as the Settings page does.
 */
let github: FakeGitHub;

beforeAll(async () => {
  github = await startFakeGitHub();
  github.addRepo({ owner: "ada", name: "plans", readme: "# Plans", files: ["README.md"] });
  github.addToken({ token: "ghp_classic_ok", login: "ada", scopes: ["repo", "read:user"] });
});
afterAll(async () => {
  // Every request this suite made to GitHub must follow GitHub's own OpenAPI description.
  expect(github?.openapiViolations ?? []).toEqual([]);
  await github?.close();
});
beforeEach(() => {
  github.setMode("ok");
  github.setRateLimit({ authenticated: 5000 });
});

const client = (config: Record<string, number> = {}, opts: Parameters<typeof githubClient>[2] = {}) =>
  githubClient(
    {
      config: { GITHUB_API_URL: github.url, GITHUB_RATE_LIMIT_MAX_WAIT_MS: 5000, ...config },
      log: testLogger("silent"),
    },
    "ghp_classic_ok",
    opts,
  );

const userRequests = () => github.requests.filter((r) => r.path === "/user").length;

async function failure(promise: Promise<unknown>): Promise<IntegrationError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(IntegrationError);
  return err as IntegrationError;
}

describe("the GitHub client and GitHub's rate limits", () => {
  it.each([429, 403] as const)(
    "waits for Retry-After on a %i secondary rate limit, then succeeds",
    async (status) => {
      github.setMode("secondary_rate_limit", { times: 1, retryAfter: 1, status });
      const before = userRequests();
      const t0 = Date.now();
      const res = await client().rest.users.getAuthenticated();
      expect(res.data.login).toBe("ada");
      expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
      expect(userRequests() - before).toBe(2);
    },
  );

  it("gives up at once, after one request, when GitHub asks for a longer wait than the cap", async () => {
    github.setMode("secondary_rate_limit", { times: 5, retryAfter: 60 });
    const before = userRequests();
    const t0 = Date.now();
    const err = await failure(client().rest.users.getAuthenticated());
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(userRequests() - before).toBe(1);
    expect(err.message).toBe("GitHub's rate limit was reached. Please try again in a few minutes.");
    expect(err.code).toBe("SERVICE_UNAVAILABLE");
    expect(err.retryable).toBe(true);
  });

  it("without Retry-After waits GitHub's minute, so a short cap gives up instead of retrying early", async () => {
    github.setMode("secondary_rate_limit", { times: 5, retryAfter: null, status: 403 });
    const before = userRequests();
    const err = await failure(
      client({ GITHUB_RATE_LIMIT_MAX_WAIT_MS: 30_000 }).rest.users.getAuthenticated(),
    );
    expect(userRequests() - before).toBe(1);
    expect(err.serviceStatus).toBe(403);
    expect(err.message).toMatch(/rate limit/);
  });

  it("does not hammer an exhausted primary limit: the reset is an hour away", async () => {
    github.setRateLimit({ authenticated: 1 });
    const gh = client();
    await gh.rest.users.getAuthenticated();
    const before = userRequests();
    const err = await failure(gh.rest.users.getAuthenticated());
    expect(userRequests() - before).toBe(1);
    expect(err.serviceStatus).toBe(403);
    expect(err.message).toBe("GitHub's rate limit was reached. Please try again in a few minutes.");
  });

  it("a caller's cap below the configured one wins", async () => {
    github.setMode("secondary_rate_limit", { times: 1, retryAfter: 2 });
    const err = await failure(client({}, { maxRateLimitWaitMs: 1000 }).rest.users.getAuthenticated());
    expect(err.message).toMatch(/rate limit/);
  });

  it("spaces one token's writes GITHUB_WRITE_INTERVAL_MS apart", async () => {
    const gh = client({ GITHUB_WRITE_INTERVAL_MS: 300 });
    const t0 = Date.now();
    await Promise.all(
      ["one", "two", "three"].map((name) =>
        gh.rest.issues.createLabel({ owner: "ada", repo: "plans", name: `paced ${name}`, color: "ededed" }),
      ),
    );
    expect(Date.now() - t0).toBeGreaterThanOrEqual(550);
    expect(github.labels("ada", "plans")).toEqual(expect.arrayContaining(["paced one", "paced three"]));
  });
});

describe("the GitHub client's failures", () => {
  it("words a refused token as the Settings page does, as a bad request", async () => {
    const gh = githubClient(
      { config: { GITHUB_API_URL: github.url }, log: testLogger("silent") },
      "ghp_wrong",
    );
    const err = await failure(gh.rest.users.getAuthenticated());
    expect(err.message).toBe("GitHub rejected the token (Bad credentials). Check it and try again.");
    expect(err.code).toBe("BAD_REQUEST");
    expect(err.retryable).toBe(false);
  });

  it("times out a request that gets no answer, and retries it only when asked to", async () => {
    github.setMode("slow", { times: 1, delayMs: 2000 });
    const before = userRequests();
    const err = await failure(client({ GITHUB_TIMEOUT_MS: 200 }).rest.users.getAuthenticated());
    expect(err.message).toBe("GitHub could not be reached. Please try again later.");
    expect(err.serviceStatus).toBeNull();
    expect(err.retryable).toBe(true);
    expect(userRequests() - before).toBe(1);
  });
});

describe("what the GitHub client sends", () => {
  let server: Server;
  let url: string;
  const seen: IncomingHttpHeaders[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ login: "ada" }));
    });
    url = await new Promise<string>((resolve) =>
      server.listen(0, "127.0.0.1", () =>
        resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
      ),
    );
  });
  afterAll(() => new Promise((r) => server.close(r)));

  it("a Bearer token, GitHub's API version, and our User-Agent", async () => {
    const gh = githubClient({ config: { GITHUB_API_URL: url }, log: testLogger("silent") }, "ghp_secret");
    await gh.rest.users.getAuthenticated();
    expect(seen.at(-1)).toMatchObject({
      authorization: "Bearer ghp_secret",
      "x-github-api-version": "2022-11-28",
      "user-agent": expect.stringMatching(/^Atomize /),
    });
  });
});
