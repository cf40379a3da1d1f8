import type { Deps } from "../../deps";
import { siteUrl } from "./seo";

export function robotsTxt(deps: Deps): string {
  return [
    "User-agent: *",
    "Allow: /",
    "Disallow: /dashboard",
    "Disallow: /tasks",
    "Disallow: /settings",
    "Disallow: /admin",
    "Disallow: /invitations",
    "Disallow: /api",
    "",
    `Sitemap: ${siteUrl(deps)}/sitemap.xml`,
    "",
  ].join("\n");
}
