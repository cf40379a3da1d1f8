import type { DetectedStack } from "../../../../shared/repository-map/stack";
import type { RepositoryMap } from "../../../../shared/schemas/repository-map";
import { type FileIndex, indexOf } from "../../repository/likely-files";
import type { OutlineNode } from "./nodes";

/**
 * The outline on a repository (issue 42): each leaf names the files it most likely touches, ranked from
 * its words (and the requirements it covers) against the map (repository/likely-files.ts); a leaf that
 * checks or tests names the test folders and the tooling that exist; the first step starts from the
 * detected stack.
 */

const TESTING = /\b(test|tests|testing|acceptance|verify|check|regression)\b/i;

type Context = { index: FileIndex; stack: DetectedStack; map: RepositoryMap; focus: Map<string, number> };

function annotate(node: OutlineNode, c: Context): OutlineNode {
  if (node.children.length > 0) return { ...node, children: node.children.map((n) => annotate(n, c)) };
  const { index, stack, map } = c;
  const own = [node.title, node.body ?? "", ...node.covers.map((r) => r.text)].join("\n");
  const testing = node.role === "verify" || TESTING.test(node.title);
  const files = index.filesFor(own, { tests: testing, focus: c.focus });
  let details = node.details;
  if (testing && map.tests.length) {
    const tools = stack.tests.length ? ` with ${stack.tests.join(" and ")}` : "";
    details = `${details}\nTests live in ${map.tests.slice(0, 5).join(", ")}: extend them${tools}.`;
  }
  if (node.role === "setup" && stack.sentence && !details.includes(stack.sentence))
    details = `${stack.sentence}.\n${details}`;
  return { ...node, details, files };
}

export function withFiles(
  nodes: OutlineNode[],
  repository: { map: RepositoryMap; stack: DetectedStack },
  request: string,
): OutlineNode[] {
  const index = indexOf(repository.map);
  const context = { index, stack: repository.stack, map: repository.map, focus: index.focusOf(request) };
  return nodes.map((n) => annotate(n, context));
}
