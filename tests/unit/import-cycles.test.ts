import { parseCircular, parseDependencyTree } from "dpdm";
import { expect, it } from "vitest";

// Issue 11: the server's modules import each other without cycles, so each folder (adapters, services,
// integrations) can be read and tested on its own. Type-only imports are allowed to point back (Deps names
// every service's types); runtime imports may not.
it("the server's runtime imports form no cycle", async () => {
  const tree = await parseDependencyTree(["src/server/main.ts"], {
    tsconfig: "tsconfig.json",
    transform: true, // drops type-only imports
    exclude: /node_modules/,
    onProgress: () => {},
  });
  const serverFiles = Object.keys(tree).filter((f) => f.startsWith("src/server/"));
  expect(serverFiles.length).toBeGreaterThan(80);
  expect(parseCircular(tree)).toEqual([]);
}, 60_000);
