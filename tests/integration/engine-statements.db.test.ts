// The statements the decomposition engine folds together to save round trips (decision 026), checked on
// the database itself (PGlite, and PostgreSQL in its pass): rows sent as one JSON parameter, and a user's
// model settings read inside a larger query.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resultRows } from "../../src/server/db/client";
import { insertRowsAsJson } from "../../src/server/db/json-rows";
import { jobs, modelProviders } from "../../src/server/db/schema/index";
import {
  providersFromJson,
  providersJson,
  readProvidersFor,
  writeProvider,
} from "../../src/server/engine/planners/provider-store";
import { registerUser, TestClient } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/server";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: "silent" });
});
afterAll(async () => {
  await server?.stop();
});

describe("insertRowsAsJson", () => {
  it("writes every row with its types, leaves the other columns to their defaults, and can skip conflicts", async () => {
    const { db } = server.deps;
    const key = `json-rows-${Date.now()}`;
    const runAt = new Date("2031-05-06T07:08:09.123Z");
    const rows = [
      { kind: "test.json-rows", payload: { a: [1, "two"], b: { c: null } }, dedupeKey: `${key}-1`, runAt },
      { kind: "test.json-rows", payload: {}, dedupeKey: `${key}-2`, runAt, maxAttempts: 7 },
    ];
    // The second row names a column the first does not: only the first row's keys are written.
    await db.execute(insertRowsAsJson(jobs, [rows[0]!, { ...rows[1]!, maxAttempts: undefined }]));
    const written = await db
      .select()
      .from(jobs)
      .where(sql`${jobs.dedupeKey} like ${`${key}-%`}`)
      .orderBy(jobs.dedupeKey);
    expect(written).toHaveLength(2);
    expect(written[0]).toMatchObject({
      kind: "test.json-rows",
      payload: { a: [1, "two"], b: { c: null } },
      status: "queued",
      attempts: 0,
      maxAttempts: 5,
      lockedBy: null,
    });
    expect(written[0]!.runAt.toISOString()).toBe(runAt.toISOString());
    expect(written[1]).toMatchObject({ payload: {}, maxAttempts: 5 });

    // The dedupe index refuses a second queued job with the same key; with the option the insert skips it.
    await expect(db.execute(insertRowsAsJson(jobs, [rows[0]!]))).rejects.toThrow();
    await db.execute(insertRowsAsJson(jobs, [rows[0]!], { onConflictDoNothing: true }));
    const again = await db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `${key}-1`));
    expect(again).toHaveLength(1);
    await db.delete(jobs).where(sql`${jobs.dedupeKey} like ${`${key}-%`}`);
  });

  it("refuses a row that leaves a column taking no null undefined, before the database sees it", () => {
    expect(() =>
      insertRowsAsJson(jobs, [
        { kind: "a", payload: {} },
        { kind: undefined, payload: {} },
      ]),
    ).toThrow(/kind is undefined/);
    expect(() => insertRowsAsJson(jobs, [{ nope: 1 } as never])).toThrow(/nope is not a column/);
  });
});

describe("providersJson", () => {
  it("reads a user's own provider and the instance's as readProvidersFor does, keys opened", async () => {
    const deps = server.deps;
    const { user } = await registerUser(new TestClient(server.url));
    const other = await registerUser(new TestClient(server.url));
    const select = async (userId: string) => {
      const [row] = resultRows<{ providers: unknown }>(
        await deps.db.execute(sql`select ${providersJson(sql`${userId}::uuid`)} as providers`),
      );
      return providersFromJson(deps, userId, row!.providers as string);
    };

    expect(await select(user.id)).toEqual({ own: null, instance: null });
    await writeProvider(
      deps,
      { instance: true },
      {
        baseUrl: "http://127.0.0.1:9/v1",
        model: "instance-model",
        concurrency: 3,
        apiKey: "sk-instance-key",
      },
      user.id,
    );
    await writeProvider(
      deps,
      { userId: user.id },
      { baseUrl: "http://127.0.0.1:9/v1", model: "own-model", concurrency: 2, apiKey: "sk-own-key-1234" },
      user.id,
    );
    try {
      const mine = await select(user.id);
      expect(mine).toEqual(await readProvidersFor(deps, user.id));
      expect(mine.own).toMatchObject({
        owner: "user",
        model: "own-model",
        concurrency: 2,
        apiKey: "sk-own-key-1234",
      });
      expect(mine.instance).toMatchObject({
        owner: "instance",
        model: "instance-model",
        apiKey: "sk-instance-key",
      });
      expect(mine.own!.updatedAt).toBeInstanceOf(Date);
      // Another user sees the instance's provider, not this user's.
      const theirs = await select(other.user.id);
      expect(theirs).toEqual(await readProvidersFor(deps, other.user.id));
      expect(theirs.own).toBeNull();
      expect(theirs.instance?.model).toBe("instance-model");
    } finally {
      await deps.db.delete(modelProviders).where(sql`${modelProviders.userId} is null`);
    }
  });
});
