/**
 * Checks the kit every fake service sits on (routing, the body reader, failure modes, the log, close),
 * so each fake's own suite only has to check what its service does.
 */
import { Agent, request } from "node:http";
import type { Socket } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  type FakeRequest,
  type FakeServer,
  type FakeServerOptions,
  jsonReply,
  ReplyError,
  Router,
  startFakeServer,
  textReply,
} from "./kit";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const start = async <C = FakeRequest>(opts: Partial<FakeServerOptions<C>> & { routes: Router<C> }) => {
  server = await startFakeServer<C>({
    notFound: (req) => jsonReply(404, { error: `no ${req.path}` }),
    ...opts,
  });
  return server;
};
const timed = async <T>(p: Promise<T>): Promise<[T, number]> => {
  const started = Date.now();
  const value = await p;
  return [value, Date.now() - started];
};
const post = (url: string, body: string, type = "application/json") =>
  fetch(url, { method: "POST", headers: { "content-type": type }, body });

describe("routing", () => {
  it("matches method and pattern, with decoded params, constraints and rests", async () => {
    const s = await start({
      routes: new Router()
        .get("/rest/api/3/issue/:key", (_req, params) => jsonReply(200, params))
        .get("/repositories/:id(\\d+)", (_req, params) => jsonReply(200, params))
        .get("/git/trees/:tree(.+)", (_req, params) => jsonReply(200, params))
        .get("/files/*", (_req, params) => jsonReply(200, params)),
    });
    expect(await (await fetch(`${s.url}/rest/api/3/issue/ATM-1`)).json()).toEqual({ key: "ATM-1" });
    expect(await (await fetch(`${s.url}/rest/api/3/issue/a%20b%2Fc`)).json()).toEqual({ key: "a b/c" });
    expect(await (await fetch(`${s.url}/repositories/42`)).json()).toEqual({ id: "42" });
    expect(await (await fetch(`${s.url}/git/trees/main/src`)).json()).toEqual({ tree: "main/src" });
    expect(await (await fetch(`${s.url}/files/`)).json()).toEqual({ "*": "" });
    expect(await (await fetch(`${s.url}/files/a/b`)).json()).toEqual({ "*": "a/b" });
    // A constraint that does not hold, a missing segment, an extra one: no route.
    for (const path of ["/repositories/x", "/rest/api/3/issue/", "/rest/api/3/issue/A/B", "/git/trees/"]) {
      const res = await fetch(`${s.url}${path}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: `no ${path}` });
    }
  });

  it("answers another method on a known path with methodNotAllowed, or notFound without one", async () => {
    const routes = new Router()
      .get("/token", () => textReply(200, "get"))
      .put("/token", () => textReply(200, "put"));
    const s = await start({
      routes,
      methodNotAllowed: (_req, allowed) =>
        textReply(405, "Method Not Allowed", { Allow: allowed.join(", ") }),
    });
    const res = await fetch(`${s.url}/token`, { method: "DELETE" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, PUT");
    expect(await (await fetch(`${s.url}/token`, { method: "PUT" })).text()).toBe("put");
    await s.close();
    const plain = await start({ routes });
    expect((await fetch(`${plain.url}/token`, { method: "DELETE" })).status).toBe(404);
  });

  it("drops trailing slashes only when told to", async () => {
    const routes = new Router().get("/v1/models", (req) => textReply(200, req.path));
    const strict = await start({ routes });
    expect((await fetch(`${strict.url}/v1/models/`)).status).toBe(404);
    await strict.close();
    const loose = await start({ routes, trailingSlash: "ignore" });
    const res = await fetch(`${loose.url}/v1/models//`);
    expect(await res.text()).toBe("/v1/models");
    expect(loose.log.at(-1)?.path).toBe("/v1/models//");
  });

  it("runs the fake's own checks around routing, with its own context and headers", async () => {
    type Ctx = { user: string };
    const s = await start<Ctx>({
      routes: new Router<Ctx>().get("/me", (ctx) => jsonReply(200, { user: ctx.user })),
      async handle(req, route) {
        if (req.headers.authorization !== "Bearer ok") return jsonReply(401, { error: "who?" });
        const reply = await route({ user: "ada" });
        return reply && { ...reply, headers: { ...reply.headers, "x-checked": "yes" } };
      },
      replyHeaders: () => ({ "x-service": "fake", "content-type": "overridden by the reply" }),
    });
    const anonymous = await fetch(`${s.url}/me`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("x-service")).toBe("fake");
    const res = await fetch(`${s.url}/me`, { headers: { authorization: "Bearer ok" } });
    expect(await res.json()).toEqual({ user: "ada" });
    expect(res.headers.get("x-checked")).toBe("yes");
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    // The unknown path goes through the same checks, then notFound.
    expect((await fetch(`${s.url}/nope`, { headers: { authorization: "Bearer ok" } })).status).toBe(404);
  });

  it("turns thrown errors into answers: a ReplyError's reply, else onError", async () => {
    const routes = new Router()
      .get("/teapot", () => {
        throw new ReplyError(textReply(418, "short and stout"));
      })
      .get("/bug", () => {
        throw new Error("oops");
      });
    const s = await start({ routes });
    const teapot = await fetch(`${s.url}/teapot`);
    expect([teapot.status, await teapot.text()]).toEqual([418, "short and stout"]);
    const bug = await fetch(`${s.url}/bug`);
    expect([bug.status, await bug.text()]).toEqual([500, "fake server failure: Error: oops"]);
    await s.close();
    const shaped = await start({
      routes,
      onError: (err) => jsonReply(500, { message: err instanceof Error ? err.message : "?" }),
    });
    expect(await (await fetch(`${shaped.url}/bug`)).json()).toEqual({ message: "oops" });
  });
});

describe("bodies", () => {
  const echo = new Router()
    .post("/json", (req) => jsonReply(200, { got: req.json() }))
    .post("/form", (req) => jsonReply(200, { got: req.form().getAll("tag") }))
    .post("/text", (req) => textReply(200, req.text()))
    .post("/ignore", () => ({ status: 204 }))
    .post("/strict-json", (req) =>
      jsonReply(200, {
        got: req.json((detail) => new ReplyError(jsonReply(400, { endpoint: "own", detail }))),
      }),
    );

  it("reads JSON, forms and text, and logs the parsed body", async () => {
    const s = await start({ routes: echo });
    expect(await (await post(`${s.url}/json`, '{"a":[1,2]}')).json()).toEqual({ got: { a: [1, 2] } });
    expect(s.log.at(-1)).toMatchObject({ method: "POST", path: "/json", body: { a: [1, 2] }, status: 200 });
    const form = await post(`${s.url}/form?x=1`, "tag=a&tag=b&name=n", "application/x-www-form-urlencoded");
    expect(await form.json()).toEqual({ got: ["a", "b"] });
    expect(s.log.at(-1)).toMatchObject({ search: "?x=1", body: { tag: ["a", "b"], name: "n" } });
    expect(await (await post(`${s.url}/text`, "héllo", "text/plain")).text()).toBe("héllo");
    expect(s.log.at(-1)?.body).toBe("héllo");
    expect(s.log.at(-1)?.headers["content-type"]).toBe("text/plain");
  });

  it("answers malformed JSON in the fake's shape, or the endpoint's own", async () => {
    const plain = await start({ routes: echo });
    const res = await post(`${plain.url}/json`, "{oops");
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/^malformed JSON: /);
    expect(plain.log.at(-1)?.body).toBe("{oops");
    await plain.close();

    const s = await start({
      routes: echo,
      malformedJson: (_req, detail) => new ReplyError(jsonReply(400, { error: "bad json", detail })),
    });
    const shaped = await post(`${s.url}/json`, "");
    expect(shaped.status).toBe(400);
    expect(await shaped.json()).toMatchObject({ error: "bad json", detail: expect.any(String) });
    const own = await post(`${s.url}/strict-json`, "[1,");
    expect(await own.json()).toMatchObject({ endpoint: "own" });
  });

  it("refuses a body over the limit where it is read, in the fake's shape", async () => {
    const s = await start({
      routes: echo,
      bodyLimit: 16,
      tooLarge: () => new ReplyError(jsonReply(413, { error: "too large" })),
    });
    const big = JSON.stringify({ text: "x".repeat(100) });
    const res = await post(`${s.url}/json`, big);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: "too large" });
    expect(s.log.at(-1)?.body).toBeUndefined();
    // A handler that never reads the body does not notice.
    expect((await post(`${s.url}/ignore`, big)).status).toBe(204);
    // Exactly at the limit is fine.
    expect(await (await post(`${s.url}/text`, "0123456789abcdef", "text/plain")).text()).toBe(
      "0123456789abcdef",
    );
  });
});

describe("failure modes", () => {
  let handled: string[];
  const routes = () => {
    handled = [];
    return new Router()
      .post("/items/:id", (req, { id = "" }) => {
        handled.push(id);
        return jsonReply(201, { id, body: req.json() });
      })
      .get("/items/:id", (_req, { id = "" }) => jsonReply(200, { id }));
  };

  it("fails the next N matching requests with a status, headers and body, then recovers", async () => {
    const s = await start({ routes: routes(), replyHeaders: () => ({ "x-service": "fake" }) });
    s.faults.fail(
      { method: "POST", path: "/items/:id", times: 2 },
      jsonReply(429, { error: "slow down" }, { "Retry-After": "3" }),
    );
    expect((await fetch(`${s.url}/items/1`)).status).toBe(200); // another method: untouched
    for (let i = 0; i < 2; i++) {
      const res = await post(`${s.url}/items/1`, "{}");
      expect(res.status).toBe(429);
      expect(res.headers.get("retry-after")).toBe("3");
      expect(res.headers.get("x-service")).toBe("fake");
      expect(await res.json()).toEqual({ error: "slow down" });
    }
    expect((await post(`${s.url}/items/1`, "{}")).status).toBe(201);
    expect(handled).toEqual(["1"]);
    expect(s.log.slice(-3).map((e) => e.status)).toEqual([429, 429, 201]);
  });

  it("builds a failure per request, matches path prefixes, and stays armed until cleared", async () => {
    const s = await start({ routes: routes() });
    s.faults.fail({ path: "/items/4*" }, (req) => textReply(503, `busy: ${req.method} ${req.path}`));
    expect(await (await fetch(`${s.url}/items/42`)).text()).toBe("busy: GET /items/42");
    expect(await (await fetch(`${s.url}/items/4`)).text()).toBe("busy: GET /items/4");
    expect((await fetch(`${s.url}/items/5`)).status).toBe(200);
    s.faults.clear();
    expect((await fetch(`${s.url}/items/42`)).status).toBe(200);
    s.faults.fail({ times: 0 }, textReply(500, "never"));
    expect((await fetch(`${s.url}/items/42`)).status).toBe(200);
  });

  it("delays, then answers as usual", async () => {
    const s = await start({ routes: routes() });
    s.faults.delay({ path: "/items/:id", times: 1 }, 150);
    const [res, ms] = await timed(post(`${s.url}/items/7`, '{"n":1}'));
    expect(res.status).toBe(201);
    expect(ms).toBeGreaterThanOrEqual(140);
    const [, fast] = await timed(fetch(`${s.url}/items/7`));
    expect(fast).toBeLessThan(140);
  });

  it("drops the connection without handling the request", async () => {
    const s = await start({ routes: routes() });
    s.faults.drop({ method: "POST", times: 1 });
    await expect(post(`${s.url}/items/8`, "{}")).rejects.toThrow();
    expect(handled).toEqual([]);
    expect(s.log.at(-1)).toMatchObject({ path: "/items/8", status: 0, body: {} });
    expect((await post(`${s.url}/items/8`, "{}")).status).toBe(201);
  });

  it("loses the answer: the handler ran, the client got a socket error", async () => {
    const s = await start({ routes: routes() });
    s.faults.loseAnswer({ method: "POST", path: "/items/:id", times: 1 });
    const lost = await post(`${s.url}/items/9`, '{"n":1}').catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(TypeError);
    expect(handled).toEqual(["9"]);
    expect(s.log.at(-1)).toMatchObject({ path: "/items/9", status: 0 });
    // The retry is a second write: the duplicate a client must be ready for.
    expect((await post(`${s.url}/items/9`, '{"n":1}')).status).toBe(201);
    expect(handled).toEqual(["9", "9"]);
  });
});

describe("in flight and close", () => {
  it("counts requests in flight", async () => {
    const s = await start({ routes: new Router().get("/x", () => textReply(200, "x")) });
    s.faults.delay({ times: 3 }, 100);
    await Promise.all([1, 2, 3].map(() => fetch(`${s.url}/x`)));
    expect(s.maxInFlight).toBe(3);
    expect(s.inFlight).toBe(0);
  });

  it("closes with an idle keep-alive connection open, without waiting for it", async () => {
    const s = await start({ routes: new Router().get("/x", () => textReply(200, "x")) });
    const agent = new Agent({ keepAlive: true });
    const answered = new Promise<Socket>((resolve) => {
      const req = request(`${s.url}/x`, { agent }, (res) => {
        res.resume();
        res.on("end", () => resolve(req.socket!));
      });
      req.end();
    });
    const socket = await answered;
    await vi.waitFor(() => expect(agent.freeSockets).not.toEqual({})); // idle in the pool, still open
    expect(socket.destroyed).toBe(false);
    const closed = new Promise((resolve) => socket.once("close", resolve));
    const [, ms] = await timed(s.close());
    expect(ms).toBeLessThan(500);
    await closed;
    agent.destroy();
    await expect(fetch(`${s.url}/x`)).rejects.toThrow();
  });

  it("closes while a request is held, and the client gets an error", async () => {
    const s = await start({ routes: new Router().get("/x", () => textReply(200, "x")) });
    s.faults.delay({}, 60_000);
    const pending = fetch(`${s.url}/x`).catch((e: unknown) => e);
    await vi.waitFor(() => expect(s.inFlight).toBe(1));
    const [, ms] = await timed(s.close());
    expect(ms).toBeLessThan(500);
    expect(await pending).toBeInstanceOf(TypeError);
    expect(s.log.at(-1)?.status).toBe(0);
  });
});
