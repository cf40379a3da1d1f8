import type { OutlineNode } from "./outline";

/**
 * The offline outline's dependencies among siblings: only the obvious ones, by open rules (decision 018).
 *   - setup comes before everything else; the release waits for every feature;
 *   - within a release, the checks (security review, acceptance run) come before shipping;
 *   - steps of a series (discovery, measure before fixing, cut over before switching) follow each other;
 *   - a data model comes before the API that serves it;
 *   - an integration comes before the requirements that use the service it integrates.
 * A parent's dependencies apply to its subtasks, so a rule between two workstreams orders all their work.
 */

const DATA = /\b(data ?models?|schemas?|databases?|tables?|stor(?:e|es|ed|age)|records?)\b/i;
const API = /\b(apis?|endpoints?|rest|graphql|webhooks?)\b/i;
const INTEGRATION = /\b(integrat\w*|connect\w*|webhooks?|third[- ]party)\b/i;
/** A name in the text (a capitalised word that does not start the sentence): "Stripe", "Slack", "Jira". */
const NAME = /(?<=[^.!?]\s)[A-Z][A-Za-z0-9]{2,}\b/g;

const textOf = (n: OutlineNode) => (n.covers.length ? n.covers.map((r) => r.text).join(" ") : n.title);
const namesIn = (text: string) => new Set(text.match(NAME) ?? []);

/** For each sibling, the (1-based) numbers of the siblings it waits for. */
export function siblingOrder(siblings: OutlineNode[]): number[][] {
  const deps = siblings.map(() => new Set<number>());
  const texts = siblings.map(textOf);
  const plain = (n: OutlineNode) => n.role === undefined || n.role === "verify";
  // The release waits for setup through the workstreams, when there are any.
  const workstreams = siblings.some((n) => n.role !== "setup" && n.role !== "release");
  siblings.forEach((b, j) => {
    siblings.forEach((a, i) => {
      if (i === j) return;
      const before =
        (a.role === "setup" && b.role !== "setup" && !(b.role === "release" && workstreams)) ||
        (b.role === "release" && a.role !== "setup" && a.role !== "release") ||
        (b.role === "ship" && a.role === "verify") ||
        (plain(a) &&
          plain(b) &&
          a.role === b.role &&
          ((API.test(texts[j]!) && DATA.test(texts[i]!) && !API.test(texts[i]!)) ||
            (INTEGRATION.test(texts[i]!) &&
              !INTEGRATION.test(texts[j]!) &&
              [...namesIn(texts[i]!)].some((name) => namesIn(texts[j]!).has(name)))));
      if (before) deps[j]!.add(i + 1);
    });
    if (b.sequence) {
      for (let i = j - 1; i >= 0; i--) {
        if (siblings[i]!.sequence) {
          deps[j]!.add(i + 1);
          break;
        }
      }
    }
  });
  return deps.map((d) => [...d].sort((x, y) => x - y));
}
