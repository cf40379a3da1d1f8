import { readFileSync } from "node:fs";
import { parseDependencyTree } from "dpdm";
import { expect, it } from "vitest";

// Issue 11: pages a visitor opens without signing in never load zod (about 25 kB gzipped). They check
// their forms with the zod-free rules in src/shared (auth-rules, blog-rules, email-address); the signed-in
// pages use the schemas themselves. Each page is its own chunk (routes.tsx), so a page's chunk holds what
// it imports statically; the app shell (main.tsx) must stay clean too.
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
  "features/settings/settings-page",
  "features/blog-admin/blog-admin-page",
];

it("every page in routes.tsx is listed here as public or signed-in", () => {
  const routes = readFileSync("src/client/routes.tsx", "utf8");
  const pages = [...routes.matchAll(/import\("\.\/([^"]+)"\)/g)].map((m) => m[1]);
  expect(pages.sort()).toEqual([...PUBLIC_PAGES, ...SIGNED_IN_PAGES].sort());
});

it("the app shell and the public pages import neither zod nor the schemas", async () => {
  const entries = ["src/client/main.tsx", ...PUBLIC_PAGES.map((p) => `src/client/${p}.tsx`)];
  const tree = await parseDependencyTree(entries, {
    tsconfig: "tsconfig.json",
    transform: true, // drops type-only imports
    exclude: /node_modules/,
    onProgress: () => {},
  });
  const offending: string[] = [];
  for (const entry of entries) {
    // Static imports only: a lazy page (import()) is a chunk of its own.
    const seen = new Set<string>();
    const walk = (file: string, via: string[]) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const dep of tree[file] ?? []) {
        if (dep.kind === "DynamicImport" || !dep.id) continue;
        if (
          dep.request === "zod" ||
          dep.id.includes("node_modules/zod/") ||
          dep.id.startsWith("src/shared/schemas/")
        )
          offending.push([...via, file, dep.request].join(" -> "));
        else if (dep.id.startsWith("src/")) walk(dep.id, [...via, file]);
      }
    };
    walk(entry, []);
  }
  expect(offending).toEqual([]);
}, 60_000);
