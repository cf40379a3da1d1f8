// Creates (or re-creates) an empty PostgreSQL database: node scripts/create-database.mjs <url>
// Used by .ci/run so CI needs no psql client, only Node and the server.
import postgres from "postgres";

const target = new URL(process.argv[2] ?? "");
const name = target.pathname.slice(1);
if (!/^[a-z_][a-z0-9_]*$/.test(name)) {
  console.error(`Refusing database name "${name}"`);
  process.exit(2);
}
const admin = new URL(target);
admin.pathname = "/postgres";
const sql = postgres(admin.toString(), { max: 1, onnotice: () => {} });
try {
  await sql.unsafe(`drop database if exists ${name} with (force)`);
  await sql.unsafe(`create database ${name}`);
  console.info(`created database ${name}`);
} finally {
  await sql.end();
}
