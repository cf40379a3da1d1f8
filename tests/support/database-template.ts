import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import postgres from "postgres";
import { migrationsFolder, openDatabase } from "../../src/server/db/client";
import * as schema from "../../src/server/db/schema/index";

/**
 * Vitest globalSetup of the integration project: the schema is migrated once per run, and every test
 * server starts from a copy of the result instead of migrating from scratch (tests/support/server.ts).
 * Either copy holds drizzle's own table of applied migrations, so the server's migrate() at start finds
 * nothing to do.
 * - PostgreSQL pass (TEST_DATABASE_URL): a template database; each scratch database is made with
 *   `CREATE DATABASE … TEMPLATE`. Its name is unique per run, as runs from other checkouts may share
 *   the server.
 * - PGlite pass: a migrated PGlite data directory. Each in-memory PGlite of a test server loads its dump
 *   (`dumpDataDir`) instead of creating and migrating a cluster of its own, a test server given a data
 *   folder starts on a copy of the directory itself, and the run's app bundle carries it as its PGlite
 *   seed (tests/support/app-bundle.ts), so an app process spawned on a new DATA_DIR starts from it too.
 * Both are removed at teardown.
 */
export const TEMPLATE_DB_ENV = "ATOMIZE_TEST_TEMPLATE_DB";
export const PGLITE_DUMP_ENV = "ATOMIZE_TEST_PGLITE_DUMP";
export const PGLITE_DIR_ENV = "ATOMIZE_TEST_PGLITE_DIR";

/**
 * Gives a data folder that holds no database yet a copy of the run's migrated PGlite folder, as if the
 * app had started there once (creating a cluster is the slowest part of a start). Outside a vitest run,
 * or when the folder already has a database, it does nothing.
 */
export function seedPgliteDataDir(dataDir: string): void {
  const template = process.env[PGLITE_DIR_ENV];
  const target = path.join(dataDir, "pglite");
  if (template && !existsSync(target)) cpSync(template, target, { recursive: true });
}

export default async function setup(): Promise<() => Promise<void>> {
  const baseUrl = process.env.TEST_DATABASE_URL;
  return baseUrl ? postgresTemplate(baseUrl) : pgliteDump();
}

async function postgresTemplate(baseUrl: string): Promise<() => Promise<void>> {
  const name = `atomize_template_${randomBytes(6).toString("hex")}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  // The app's own migration, as a server would run it; closed again so the template has no connection
  // (PostgreSQL copies a template only while nobody is connected to it).
  const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 1 });
  await database.close();
  // The test workers start after global setup and inherit this environment.
  process.env[TEMPLATE_DB_ENV] = name;
  return async () => {
    delete process.env[TEMPLATE_DB_ENV];
    const a = postgres(baseUrl, { max: 1, onnotice: () => {} });
    try {
      await a.unsafe(`drop database if exists ${name} with (force)`);
    } finally {
      await a.end();
    }
  };
}

async function pgliteDump(): Promise<() => Promise<void>> {
  const dir = mkdtempSync(path.join(tmpdir(), "atomize-pglite-template-"));
  const dataDir = path.join(dir, "pglite");
  // As openDatabase migrates PGlite (src/server/db/client.ts).
  const client = new PGlite(dataDir);
  await client.waitReady;
  await migrate(drizzle(client, { schema, casing: "snake_case" }), { migrationsFolder });
  const dump = await client.dumpDataDir("none");
  await client.close();
  const file = path.join(dir, "migrated.tar");
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  process.env[PGLITE_DUMP_ENV] = file;
  process.env[PGLITE_DIR_ENV] = dataDir;
  return async () => {
    delete process.env[PGLITE_DUMP_ENV];
    delete process.env[PGLITE_DIR_ENV];
    rmSync(dir, { recursive: true, force: true });
  };
}
