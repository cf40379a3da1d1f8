import type { BriefAnalysis } from "./brief";
import type { Tech } from "./tech";
import { listJoin, words } from "./text";

/** Small phrases the plan templates share: tool names, articles, object phrases. */

export function serverName(t: Tech): string {
  if (!t.server) return t.language;
  return t.server
    .replace(/^(a|an|the)\s+(custom\s+)?/i, "")
    .replace(
      /\s+(controllers|views|route handlers|endpoints|API routes|modules|collections|content API|GraphQL and apps|minimal APIs|Web MVC)$/i,
      "",
    );
}

/** "the Django ORM" stays, "Prisma" becomes "the Prisma": avoids "the the" in templates. */
export function theLib(name: string): string {
  return /^(the|a|an)\s/i.test(name) ? name : `the ${name}`;
}

/** "Vitest and Playwright", or just "PHPUnit and Behat" when the first already names the second. */
export function testTools(t: Tech): string {
  return t.test.includes(t.e2e) ? t.test : `${t.test} and ${t.e2e}`;
}

export function frontendName(t: Tech): string {
  return t.frontend ?? t.project;
}

export function dbName(t: Tech): string {
  return t.database ?? "local storage";
}

export function stores(t: Tech): string {
  const p = t.platforms.toLowerCase();
  if (p.includes("ios") && p.includes("android")) return "the App Store and Google Play";
  if (p.includes("android")) return "Google Play";
  if (p.includes("ios")) return "the App Store";
  return "the app stores";
}

export function defaultActors(t: Tech): string {
  switch (t.typeId) {
    case "ecommerce":
      return "customers";
    case "cms":
      return "editors";
    case "api-backend":
      return "API clients";
    case "game":
      return "players";
    default:
      return "users";
  }
}

export function entityList(a: BriefAnalysis, max = 4): string {
  const names = a.entities.slice(0, max).map((e) => e.plural);
  return names.length > 0 ? listJoin(names) : `the ${a.title} data`;
}

const LEADING_VERB_PHRASE =
  /^(set up|lay out|roll out|write and apply|sign and notarise|package, sign and publish|flash, enclose and install|ingest, clean and validate|deploy and schedule|build and release|clean, deduplicate and type|wire and bench-test|check and record|playtest, test with [^ ]+ and)\s+/i;

const LEADING_VERBS = new Set(
  `add build create write configure install run provision deploy define document test check draw assemble plan prepare
   flash package publish profile plot summarise inventory clean implement issue protect persist gate record send tune show
   handle store make validate connect release integrate train load visualise playtest script wire enforce model design
   ingest sketch explore push synchronise compute bench-test unit-test automate monitor share schedule secure scaffold
   restrict delivery let lay`.split(/\s+/),
);

/** "Build the Express endpoints for search" -> "the Express endpoints for search". */
export function objFromText(text: string): string {
  const multi = LEADING_VERB_PHRASE.exec(text);
  if (multi) return text.slice(multi[0].length);
  const ws = words(text);
  if (ws.length > 1 && LEADING_VERBS.has(ws[0]!.toLowerCase())) return ws.slice(1).join(" ");
  return text;
}
