import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
// @ts-expect-error: a plain ES module script without types (scripts/check-bundle-budget.mjs)
import { HYDRATION_SOURCE, initialChunks, publicPageSources } from "../../scripts/check-bundle-budget.mjs";

// `npm run build` fails when the landing page's initial JavaScript goes over its budget
// (scripts/check-bundle-budget.mjs). These check that it counts what a browser loads first.
const MANIFEST = {
  "src/client/main.tsx": {
    file: "assets/index-a.js",
    isEntry: true,
    imports: ["_jsx-runtime.js"],
    dynamicImports: ["src/client/start.tsx"],
    css: ["assets/index-a.css"],
  },
  "src/client/start.tsx": {
    file: "assets/start-h.js",
    isDynamicEntry: true,
    imports: ["_jsx-runtime.js", "_react-dom.js"],
    dynamicImports: ["src/client/features/landing/landing-page.tsx", "src/client/app-routes.tsx"],
  },
  "_react-dom.js": { file: "assets/react-dom-i.js" },
  "_jsx-runtime.js": { file: "assets/jsx-runtime-b.js" },
  "_use-page-meta.js": { file: "assets/use-page-meta-c.js", imports: ["_jsx-runtime.js"] },
  "src/client/features/landing/landing-page.tsx": {
    file: "assets/landing-page-d.js",
    isDynamicEntry: true,
    imports: ["_jsx-runtime.js", "_use-page-meta.js", "src/client/features/landing/atomize-logo.svg"],
  },
  "src/client/features/landing/atomize-logo.svg": { file: "assets/atomize-logo-e.svg" },
  "src/client/app-routes.tsx": {
    file: "assets/app-routes-f.js",
    isDynamicEntry: true,
    imports: ["_trpc.js"],
  },
  "_trpc.js": { file: "assets/trpc-g.js" },
};

it("counts the entry and its static imports before the page has loaded, and nothing loaded lazily", () => {
  expect(initialChunks(MANIFEST, [])).toEqual(["assets/index-a.js", "assets/jsx-runtime-b.js"]);
});

it("counts React's side, the page's chunk and their static imports once to hydrate, and no other page", () => {
  const files = initialChunks(MANIFEST, [HYDRATION_SOURCE, "src/client/features/landing/landing-page.tsx"]);
  expect(files.sort()).toEqual([
    "assets/index-a.js",
    "assets/jsx-runtime-b.js",
    "assets/landing-page-d.js",
    "assets/react-dom-i.js",
    "assets/start-h.js",
    "assets/use-page-meta-c.js",
  ]);
  expect(files).not.toContain("assets/app-routes-f.js");
  expect(files).not.toContain("assets/trpc-g.js");
});

it("finds every server-rendered page of public-pages.ts", () => {
  const text = readFileSync("src/client/public-pages.ts", "utf8");
  const lazy = [...text.matchAll(/import\("\.\/([^"]+)"\)/g)].map((m) => `src/client/${m[1]}.tsx`);
  const sources = Object.values(publicPageSources(text) as Record<string, string>);
  expect(sources.sort()).toEqual(lazy.sort());
  expect(Object.keys(publicPageSources(text))).toContain("landing");
});
