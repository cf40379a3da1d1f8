import { readFileSync } from "node:fs";
import { parseDependencyTree } from "dpdm";
import { expect, it } from "vitest";

// Issue 11: pages a visitor opens without signing in never load zod (about 25 kB gzipped). They check
// their forms with the zod-free rules in src/shared (auth-rules, blog-rules, email-address); the signed-in
// pages use the schemas themselves. Each page is its own chunk (routes.tsx, app-routes.tsx), so a page's
// chunk holds what it imports statically; the app shell (main.tsx) must stay clean too.
// Issue 15: the shell and the pages the server renders (public-pages.ts) load neither the tRPC client nor
// TanStack Query either; those come with the signed-in routes (lib/runtime.ts loads them on demand).
const PUBLIC_PAGES = [
  "features/landing/landing-page",
  "features/about/about-page",
  "features/contact/contact-page",
  "features/legal/privacy-page",
  "features/legal/terms-page",
  "features/blog/blog-list-page",
  "features/blog/blog-post-page",
  "features/auth/login-page",
  "features/auth/register-page",
  "features/auth/secure-oauth-callback-page",
  "features/auth/oauth-callback-page",
  "features/auth/verify-email-page",
  "features/not-found/not-found-page",
];
const SIGNED_IN_PAGES = [
  "features/dashboard/dashboard-page",
  "features/tasks/create-task-page",
  "features/tasks/task-detail-page",
  "features/teams/invitation-page",
  "features/settings/settings-page",
  "features/blog-admin/blog-admin-page",
];

/** The pages the server renders, which hydrate before anything else loads. */
const SERVER_RENDERED_PAGES = [
  "features/landing/landing-page",
  "features/about/about-page",
  "features/contact/contact-page",
  "features/legal/privacy-page",
  "features/legal/terms-page",
  "features/blog/blog-list-page",
  "features/blog/blog-post-page",
  "features/not-found/not-found-page",
];

const lazyImports = (file: string) =>
  [...readFileSync(file, "utf8").matchAll(/import\("\.\/([^"]+)"\)/g)].map((m) => m[1]);

it("every page in the route tables is listed here as public or signed-in", () => {
  const pages = [...lazyImports("src/client/public-pages.ts"), ...lazyImports("src/client/app-routes.tsx")];
  expect(pages.sort()).toEqual([...PUBLIC_PAGES, ...SIGNED_IN_PAGES].sort());
  expect(lazyImports("src/client/public-pages.ts").sort()).toEqual([...SERVER_RENDERED_PAGES].sort());
});

const SHELL_ENTRIES = ["src/client/main.tsx", "src/client/start.tsx", "src/client/entry-server.tsx"];

// One parse of the client's import graph for both checks (it takes a while on two cores).
let graph: ReturnType<typeof parseDependencyTree> | undefined;
const importGraph = () =>
  (graph ??= parseDependencyTree(
    [...SHELL_ENTRIES, ...[...PUBLIC_PAGES, ...SERVER_RENDERED_PAGES].map((p) => `src/client/${p}.tsx`)],
    {
      tsconfig: "tsconfig.json",
      transform: true, // drops type-only imports
      exclude: /node_modules/,
      onProgress: () => {},
    },
  ));

/** What `entries` import statically (a lazy page, import(), is a chunk of its own), matching `bad`. */
async function staticImportsMatching(
  entries: string[],
  bad: (dep: { request: string; id: string }) => boolean,
): Promise<string[]> {
  const tree = await importGraph();
  const offending: string[] = [];
  for (const entry of entries) {
    const seen = new Set<string>();
    const walk = (file: string, via: string[]) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const dep of tree[file] ?? []) {
        if (dep.kind === "DynamicImport" || !dep.id) continue;
        if (bad({ request: dep.request, id: dep.id }))
          offending.push([...via, file, dep.request].join(" -> "));
        else if (dep.id.startsWith("src/")) walk(dep.id, [...via, file]);
      }
    };
    walk(entry, []);
  }
  return offending;
}

it("the shell and the server-rendered pages load neither the tRPC client nor TanStack Query", async () => {
  const entries = [...SHELL_ENTRIES, ...SERVER_RENDERED_PAGES.map((p) => `src/client/${p}.tsx`)];
  const offending = await staticImportsMatching(
    entries,
    ({ request, id }) =>
      /^@trpc\/|^@tanstack\/|^superjson$/.test(request) ||
      /node_modules\/(@trpc|@tanstack|superjson)\//.test(id) ||
      id === "src/client/lib/app-runtime.tsx",
  );
  expect(offending).toEqual([]);
}, 60_000);

it("the app shell and the public pages import neither zod nor the schemas", async () => {
  const entries = [
    "src/client/main.tsx",
    "src/client/start.tsx",
    ...PUBLIC_PAGES.map((p) => `src/client/${p}.tsx`),
  ];
  const offending = await staticImportsMatching(
    entries,
    ({ request, id }) =>
      request === "zod" || id.includes("node_modules/zod/") || id.startsWith("src/shared/schemas/"),
  );
  expect(offending).toEqual([]);
}, 60_000);
