// `npm start` and `npm run make-admin`: run the server's compiled JavaScript (dist/server, which
// `npm run build` writes), or say plainly that it has not been built. `npm run dev` runs the TypeScript
// source instead. The entry point runs in this process, so signals and the exit code are its own.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const commands = { main: "npm start", "make-admin": "npm run make-admin -- <email>" };
const [entry, ...args] = process.argv.slice(2);
if (!Object.hasOwn(commands, entry)) {
  process.stderr.write(`Usage: node scripts/run-built.mjs ${Object.keys(commands).join("|")} [arguments]\n`);
  process.exit(2);
}
const file = fileURLToPath(new URL(`../dist/server/${entry}.js`, import.meta.url));
if (!existsSync(file)) {
  process.stderr.write(
    `Atomize is not built yet (${path.relative(process.cwd(), file)} is missing): run \`npm run build\` first, then \`${commands[entry]}\`.\n`,
  );
  process.exit(1);
}
// The entry point reads its own arguments, as if Node had started it directly.
process.argv = [process.argv[0], file, ...args];
await import(pathToFileURL(file).href);
