/**
 * An Atlassian Document Format document (what JIRA keeps as a description) as plain text: each paragraph,
 * heading, list item or other block of text on its own line(s), every line trimmed, empty lines dropped.
 * The export's baseline and what sync reads back both go through it, so they compare equal when nobody
 * edited the issue. Pure: no I/O, anything that is not ADF reads as "".
 */
export function adfText(doc: unknown): string {
  const lines: string[] = [];
  walk(doc, lines);
  return lines
    .flatMap((l) => l.split("\n"))
    .map((l) => l.trim())
    .filter(Boolean)
    .join("\n");
}

type Node = { type?: unknown; text?: unknown; attrs?: Record<string, unknown>; content?: unknown };

const INLINE = new Set(["text", "hardBreak", "mention", "emoji", "inlineCard", "date", "status"]);

const isNode = (v: unknown): v is Node => typeof v === "object" && v !== null && !Array.isArray(v);
const children = (n: Node): unknown[] => (Array.isArray(n.content) ? n.content : []);

/** A block whose children are inline nodes is one line of text; any other node is walked into. */
function walk(node: unknown, lines: string[]) {
  if (!isNode(node)) return;
  const content = children(node);
  if (content.some((c) => isNode(c) && INLINE.has(String(c.type)))) {
    lines.push(content.map(inline).join(""));
    return;
  }
  for (const c of content) walk(c, lines);
}

function inline(node: unknown): string {
  if (!isNode(node)) return "";
  const attr = (k: string) => (typeof node.attrs?.[k] === "string" ? (node.attrs[k] as string) : "");
  switch (node.type) {
    case "text":
      return typeof node.text === "string" ? node.text : "";
    case "hardBreak":
      return "\n";
    case "mention":
    case "emoji":
    case "status":
      return attr("text") || attr("shortName");
    case "inlineCard":
      return attr("url");
    case "date": {
      const ms = Number(attr("timestamp"));
      return Number.isFinite(ms) && attr("timestamp") ? new Date(ms).toISOString().slice(0, 10) : "";
    }
    default:
      return children(node).map(inline).join("");
  }
}
