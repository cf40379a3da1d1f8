import { parseCircular, parseDependencyTree } from "dpdm";
import { expect, it } from "vitest";

// Issues 11 and 44: the server's modules import each other without cycles, type imports included, so
// each folder (adapters, services, integrations) can be read and tested on its own. A lower module that
// needs something of Deps declares the port it needs (services/exports/tracker.ts, the planners'
// provider store) rather than naming Deps while Deps names it.
it("the server's imports, type imports included, form no cycle", async () => {
  const tree = await parseDependencyTree(["src/server/**/*.ts"], {
    tsconfig: "tsconfig.json",
    transform: false, // type-only imports count
    exclude: /node_modules/,
    onProgress: () => {},
  });
  const serverFiles = Object.keys(tree).filter((f) => f.startsWith("src/server/"));
  expect(serverFiles.length).toBeGreaterThan(300);
  expect(parseCircular(tree)).toEqual([]);
}, 60_000);
