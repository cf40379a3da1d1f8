import type { Requirement } from "../../reading/types";

/**
 * How the offline planner groups stated requirements into workstreams (the epics): the description's
 * own sections when it has them, otherwise a few plain categories. Requirements the text states in an
 * order stay together, in that order, so their order can be kept (offline/stated-order.ts).
 */

/** Plain categories, checked in order, for descriptions without their own sections. */
const CATEGORIES: { title: string; re: RegExp }[] = [
  {
    title: "Sign-in, accounts and permissions",
    re: /\b(sign[- ]?(in|up|on|out)|log[- ]?(in|out)|login|auth\w*|accounts?|passwords?|sso|saml|oauth|oidc|2fa|mfa|roles?|permissions?|invit\w*)\b/i,
  },
  {
    title: "Payments and billing",
    re: /\b(payments?|pay|billing|invoic\w*|subscriptions?|checkout|refunds?|stripe|paypal|pricing)\b/i,
  },
  {
    title: "Compliance and audit",
    re: /\b(audit\w*|complian\w*|hipaa|gdpr|cfr|part 11|e-?signatures?|retention|regulat\w*)\b/i,
  },
  { title: "Notifications and messages", re: /\b(e-?mails?|notif\w*|push|sms|remind\w*|alerts?|digest)\b/i },
  { title: "Integrations and APIs", re: /\b(api|apis|webhooks?|integrat\w*|third[- ]party|slack|zapier)\b/i },
  {
    title: "Data import, export and storage",
    re: /\b(import\w*|export\w*|csv|backups?|stor(e|age)|sync\w*|migrat\w*)\b/i,
  },
  {
    title: "Reports and dashboards",
    re: /\b(reports?|dashboards?|analytics|charts?|statistics|stats|metrics|insights)\b/i,
  },
];
export const CORE = "Core functionality";

/** Requirements about cross-cutting work take the place of the generic step for it. */
export const DEPLOY_REQ =
  /^(?:(?:it |we )?(?:must|should|needs? to|will)?\s*(?:be )?)?(deploy\w*|host(ed|ing)?|release\w*|publish\w*|ship\w*|runs? on|available on)\b/i;
export const CI_REQ =
  /^(?:(?:it |we )?(?:must|should|needs? to|will)?\s*(?:have |use |set up |add )?)?(ci|continuous integration|github actions|gitlab ci|automated tests?|tests? run)\b/i;

export function workstreams(
  requirements: Requirement[],
  sequences: string[][] = [],
): { title: string; items: Requirement[] }[] {
  const sections = [...new Set(requirements.map((r) => r.section))];
  const bySection =
    sections.filter((s) => s !== null).length >= 2 ||
    (sections.length === 1 && sections[0] !== null && requirements.length > 3);
  const groups = new Map<string, Requirement[]>();
  for (const r of requirements) {
    const key = bySection
      ? (r.section ?? "Overview")
      : (CATEGORIES.find((c) => c.re.test(r.text))?.title ?? CORE);
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  if (!bySection) {
    // A category earns a workstream with two requirements or more; a lone match is more likely a
    // coincidence of words ("IAM roles" is not sign-in) and stays with the rest.
    for (const [title, items] of [...groups]) {
      if (title !== CORE && items.length < 2) {
        groups.delete(title);
        groups.set(CORE, [...(groups.get(CORE) ?? []), ...items]);
      }
    }
    const core = groups.get(CORE);
    if (core) core.sort((a, b) => Number(a.id.slice(1)) - Number(b.id.slice(1)));
  }
  // A stated sequence goes where its first step went, in its own order.
  for (const seq of sequences) {
    const ids = new Set(seq);
    const home = [...groups.entries()].find(([, items]) => items.some((r) => r.id === seq[0]))?.[0];
    if (!home) continue;
    const steps = seq
      .map((id) => requirements.find((r) => r.id === id))
      .filter((r): r is Requirement => Boolean(r));
    for (const [title, items] of groups)
      groups.set(
        title,
        items.filter((r) => !ids.has(r.id)),
      );
    const items = groups.get(home)!;
    const next = items.findIndex((r) => Number(r.id.slice(1)) > Number(seq[0]!.slice(1)));
    const at = next < 0 ? items.length : next;
    items.splice(at, 0, ...steps);
  }
  for (const [title, items] of groups) if (items.length === 0) groups.delete(title);
  const order = bySection ? [...groups.keys()] : [...CATEGORIES.map((c) => c.title), CORE];
  return order.filter((k) => groups.has(k)).map((title) => ({ title, items: groups.get(title)! }));
}
