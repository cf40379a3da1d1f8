/**
 * Grants the admin role: `npm run make-admin -- someone@example.com` (add `--revoke` to take it back).
 * Uses the same configuration as the server (DATABASE_URL or the PGlite data folder).
 */
import { ConfigError, loadConfig } from "../config";
import { openDatabase } from "../db/client";
import { setRole } from "../services/auth/set-role";

const args = process.argv.slice(2);
const email = args.find((a) => !a.startsWith("--"));
if (!email) {
  process.stderr.write("Usage: npm run make-admin -- <email> [--revoke]\n");
  process.exit(2);
}
try {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    const user = await setRole({ db: database.db }, email, args.includes("--revoke") ? "user" : "admin");
    process.stdout.write(`${user.email} is now ${user.role}\n`);
  } finally {
    await database.close();
  }
} catch (err) {
  process.stderr.write(`${err instanceof ConfigError ? err.message : (err as Error).message}\n`);
  process.exit(1);
}
