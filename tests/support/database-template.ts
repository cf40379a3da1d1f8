import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { openDatabase } from "../../src/server/db/client";

/**
 * Vitest globalSetup of the PostgreSQL pass: migrates the schema once into a template database, so each
 * test server's scratch database is a `CREATE DATABASE … TEMPLATE` copy (tests/support/server.ts) instead
 * of a migration from scratch. The copy holds drizzle's own table of applied migrations, so the server's
 * migrate() at start finds nothing to do. The name is unique per run: runs from other checkouts may share
 * the PostgreSQL server. Dropped again at teardown.
 */
export const TEMPLATE_ENV = "ATOMIZE_TEST_TEMPLATE_DB";

export default async function setup(): Promise<() => Promise<void>> {
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) return async () => {};
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
  process.env[TEMPLATE_ENV] = name;
  return async () => {
    delete process.env[TEMPLATE_ENV];
    const a = postgres(baseUrl, { max: 1, onnotice: () => {} });
    try {
      await a.unsafe(`drop database if exists ${name} with (force)`);
    } finally {
      await a.end();
    }
  };
}
