import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { CliError } from "./errors";

/** What `atomize login` keeps: the server and the personal access token for it. */
export type StoredLogin = { url: string; token: string };

/** ATOMIZE_CONFIG_DIR, else %APPDATA%\atomize on Windows, else $XDG_CONFIG_HOME/atomize or ~/.config/atomize. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.ATOMIZE_CONFIG_DIR) return env.ATOMIZE_CONFIG_DIR;
  if (process.platform === "win32" && env.APPDATA) return path.join(env.APPDATA, "atomize");
  if (env.XDG_CONFIG_HOME) return path.join(env.XDG_CONFIG_HOME, "atomize");
  return path.join(homedir(), ".config", "atomize");
}

export function configFile(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(configDir(env), "config.json");
}

/** The stored login, or null when there is none. */
export function readLogin(file: string): StoredLogin | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new CliError(`Cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    const parsed = JSON.parse(text) as Partial<StoredLogin>;
    if (typeof parsed.url === "string" && typeof parsed.token === "string") {
      return { url: parsed.url, token: parsed.token };
    }
  } catch {
    // Reported below, like a file of the wrong shape.
  }
  throw new CliError(`${file} is not a login this tool wrote: run \`atomize login\` again.`);
}

/** Stores the login readable by its owner only (a folder 0700, a file 0600). */
export function writeLogin(file: string, login: StoredLogin): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  // Written afresh, so the mode applies even where an older file was more open.
  rmSync(file, { force: true });
  writeFileSync(file, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600, flag: "wx" });
}

/** Removes the stored login; false when there was none. */
export function removeLogin(file: string): boolean {
  try {
    rmSync(file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw new CliError(`Cannot remove ${file}: ${(err as Error).message}`);
  }
}
