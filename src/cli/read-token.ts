import { createInterface } from "node:readline";
import { Writable } from "node:stream";
import { CliError } from "./errors";

/**
 * The token from stdin: asked for without echo on a terminal (the prompt goes to stderr), else the first
 * non-blank line of a pipe (`pass atomize | atomize login`).
 */
export async function readToken(): Promise<string> {
  if (!process.stdin.isTTY) {
    const lines = createInterface({ input: process.stdin });
    for await (const line of lines) if (line.trim() !== "") return line;
    return "";
  }
  process.stderr.write("Paste an API token (Settings → API tokens in the app): ");
  // Readline echoes what is typed to its output; this one goes nowhere.
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  const rl = createInterface({ input: process.stdin, output: silent, terminal: true });
  try {
    return await new Promise<string>((resolve, reject) => {
      rl.on("SIGINT", () => reject(new CliError("Cancelled.")));
      rl.question("", resolve);
    });
  } finally {
    rl.close();
    process.stderr.write("\n");
  }
}
