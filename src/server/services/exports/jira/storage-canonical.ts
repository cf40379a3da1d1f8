/**
 * A Confluence storage-format body in a canonical form, to tell whether a page says what Atomize would
 * write. Confluence keeps a body re-serialised, not byte for byte as sent (closing tags added or
 * removed, attributes stamped onto macros, characters sent as entities read back decoded:
 * sphinx-contrib/confluencebuilder#801; self-closing elements expanded: pchuri/confluence-cli#183), so
 * a byte comparison would write a new version of every page on every export.
 *
 * Canonical form: references decoded and only `& < >` (and `"` in attributes) escaped, attributes sorted
 * and double-quoted, the attributes Confluence stamps on its own dropped, `<x/>` and `<x></x>` alike,
 * whitespace runs in text as one space and whitespace-only text between tags gone, comments gone.
 */
export function canonicalStorage(body: string): string {
  const out: string[] = [];
  let i = 0;
  const pushText = (raw: string, cdata = false) => {
    const text = (cdata ? raw : decode(raw)).replace(/\s+/g, " ");
    if (text.trim() !== "") out.push(escapeXml(text, false));
  };
  while (i < body.length) {
    const lt = body.indexOf("<", i);
    if (lt < 0) {
      pushText(body.slice(i));
      break;
    }
    pushText(body.slice(i, lt));
    if (body.startsWith("<!--", lt)) {
      i = end(body, "-->", lt);
      continue;
    }
    if (body.startsWith("<![CDATA[", lt)) {
      const close = end(body, "]]>", lt);
      pushText(body.slice(lt + 9, close - 3), true);
      i = close;
      continue;
    }
    const gt = tagEnd(body, lt);
    const raw = body.slice(lt + 1, gt).trim();
    i = gt + 1;
    if (raw.startsWith("/")) {
      const name = raw.slice(1).trim();
      if (!VOID.has(name.toLowerCase())) out.push(`</${name}>`);
      continue;
    }
    const selfClosing = raw.endsWith("/");
    const inner = selfClosing ? raw.slice(0, -1) : raw;
    const name = /^[^\s/>]+/.exec(inner)?.[0] ?? inner;
    const attrs = [...inner.slice(name.length).matchAll(/([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)]
      .map((m) => [m[1]!, decode(m[2] ?? m[3] ?? "")] as const)
      .filter(([a]) => !STAMPED.has(a))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    out.push(`<${name}${attrs.map(([a, v]) => ` ${a}="${escapeXml(v, true)}"`).join("")}>`);
    if (selfClosing && !VOID.has(name.toLowerCase())) out.push(`</${name}>`);
  }
  return out.join("");
}

/** Attributes Confluence adds to what it stores (ids, the version an attachment was saved at). */
const STAMPED = new Set([
  "ac:macro-id",
  "ac:local-id",
  "local-id",
  "ri:version-at-save",
  "ac:schema-version",
]);
/** HTML's void elements: `<br>`, `<br/>` and `<br></br>` are one thing. */
const VOID = new Set(["br", "hr", "img", "col", "area", "wbr", "input", "source", "embed", "param"]);
const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

function decode(text: string): string {
  return text.replace(/&(#\d+|#x[0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);/g, (whole, ref: string) => {
    if (ref.startsWith("#x")) return String.fromCodePoint(Number.parseInt(ref.slice(2), 16));
    if (ref.startsWith("#")) return String.fromCodePoint(Number(ref.slice(1)));
    return NAMED[ref] ?? whole;
  });
}

function escapeXml(text: string, attr: boolean): string {
  const out = text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return attr ? out.replace(/"/g, "&quot;") : out;
}

function end(body: string, marker: string, from: number): number {
  const at = body.indexOf(marker, from);
  return at < 0 ? body.length : at + marker.length;
}

/** The tag's closing '>', outside quoted attribute values. */
function tagEnd(body: string, lt: number): number {
  let quote: string | null = null;
  for (let j = lt + 1; j < body.length; j++) {
    const c = body[j];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === ">") return j;
  }
  return body.length;
}
