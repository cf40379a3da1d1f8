import { FilterXSS, type IWhiteList } from "xss";

/**
 * The one HTML sanitiser, on both sides (issue 44): `xss` works on the string, so the server that stores a
 * post, the server renderer and the browser all clean HTML the same way, and a page rendered on the
 * server hydrates to the very same markup.
 *
 * Blog post HTML is sanitised on the server before it is stored, with an allow-list:
 * ordinary formatting, headings, lists, code, quotes, tables, links (http, https, mailto, relative) and
 * images (http, https, relative). Everything else is removed: scripts, styles, frames, objects, forms,
 * SVG/MathML, event handlers, `style` attributes and any other URL scheme (javascript:, vbscript:, data:).
 */
const allowed: IWhiteList = {
  a: ["href", "title", "target", "rel"],
  abbr: ["title"],
  b: [],
  blockquote: ["cite"],
  br: [],
  caption: [],
  cite: [],
  code: ["class"],
  dd: [],
  del: [],
  details: [],
  div: [],
  dl: [],
  dt: [],
  em: [],
  figcaption: [],
  figure: [],
  h1: [],
  h2: [],
  h3: [],
  h4: [],
  h5: [],
  h6: [],
  hr: [],
  i: [],
  img: ["src", "alt", "title", "width", "height"],
  ins: [],
  kbd: [],
  li: [],
  mark: [],
  ol: ["start", "type"],
  p: [],
  pre: ["class"],
  q: ["cite"],
  s: [],
  samp: [],
  small: [],
  span: [],
  strong: [],
  sub: [],
  summary: [],
  sup: [],
  table: [],
  tbody: [],
  td: ["colspan", "rowspan"],
  tfoot: [],
  th: ["colspan", "rowspan", "scope"],
  thead: [],
  tr: [],
  u: [],
  ul: [],
};

/** Elements removed together with everything inside them (their text is code, not prose). */
const DROP_WITH_BODY = [
  "script",
  "style",
  "iframe",
  "frame",
  "frameset",
  "object",
  "embed",
  "applet",
  "noscript",
  "noembed",
  "noframes",
  "template",
  "textarea",
  "select",
  "option",
  "xmp",
  "plaintext",
  "title",
  "svg",
  "math",
];

const URL_ATTRS = new Set(["href", "src", "cite"]);

/**
 * Whether a URL (entities already decoded, control and blank characters removed) may stay: a relative
 * reference, or an absolute one with an allowed scheme. Anything with another scheme is dropped.
 */
export function isSafeUrl(value: string, schemes: readonly string[]): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is being removed
  const v = value.replace(/[\u0000-\u0020\u007f-\u00a0\u1680\u180e\u2000-\u2029\u205f\u3000\ufeff]/g, "");
  if (v === "") return false;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(v);
  if (!scheme) {
    // Relative: no scheme before the first / ? or #. A leading "//" (protocol-relative) is absolute.
    if (v.startsWith("//") || v.startsWith("\\")) return schemes.includes("https");
    return !/^[^/?#]*:/.test(v);
  }
  return schemes.includes(scheme[1]!.toLowerCase());
}

const LINK_SCHEMES = ["http", "https", "mailto"] as const;
const IMAGE_SCHEMES = ["http", "https"] as const;

/** An attribute value as the browser will read it: quotes unwrapped, character references decoded. */
function attrText(value: string): string {
  return decodeEntities(value.replace(/^\s*["'`]?|["'`]?\s*$/g, ""));
}

/** Escapes every character with a meaning in a quoted attribute, `&` included, so what was checked is what the browser reads. */
export function escapeAttr(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function safeValue(tag: string, name: string, value: string): string | null {
  const decoded = attrText(value);
  if (URL_ATTRS.has(name)) {
    const schemes = tag === "a" && name === "href" ? LINK_SCHEMES : IMAGE_SCHEMES;
    return isSafeUrl(decoded, schemes) ? decoded.trim() : null;
  }
  switch (name) {
    case "target":
      return decoded === "_blank" || decoded === "_self" ? decoded : null;
    case "rel":
      return /^[a-z ]{1,60}$/i.test(decoded) ? decoded : null;
    case "width":
    case "height":
    case "colspan":
    case "rowspan":
    case "start":
      return /^\d{1,5}$/.test(decoded) ? decoded : null;
    case "scope":
      return /^(row|col|rowgroup|colgroup)$/.test(decoded) ? decoded : null;
    case "type":
      return /^[1aAiI]$/.test(decoded) ? decoded : null;
    case "class":
      // Language hints for code blocks (e.g. "language-ts"), nothing that could reach app styles.
      return /^(language|lang|hljs)-[a-z0-9+#-]{1,30}( [a-z0-9 -]{0,60})?$/i.test(decoded) ? decoded : null;
    default:
      return decoded;
  }
}

/**
 * What showing HTML adds to what storing it keeps: a link that leaves the site opens in a new tab without
 * handing it this window (the author's own target and rel give way), and images load lazily.
 */
function displayAttrs(tag: string, name: string, safe: string): string {
  if (tag === "a" && name === "href" && /^https?:\/\//i.test(safe))
    return 'target="_blank" rel="noopener noreferrer"';
  if (tag === "img" && name === "src") return 'loading="lazy" decoding="async"';
  return "";
}

function makeFilter(forDisplay: boolean): FilterXSS {
  return new FilterXSS({
    whiteList: allowed,
    stripIgnoreTag: true,
    stripIgnoreTagBody: DROP_WITH_BODY,
    allowCommentTag: false,
    css: false,
    onTagAttr(tag, name, value) {
      if (!allowed[tag]?.includes(name)) return "";
      const safe = safeValue(tag, name, value);
      if (safe === null) return "";
      if (forDisplay && tag === "a" && (name === "target" || name === "rel")) return "";
      const attr = `${name}="${escapeAttr(safe)}"`;
      const added = forDisplay ? displayAttrs(tag, name, safe) : "";
      return added ? `${attr} ${added}` : attr;
    },
    // Attributes outside the allow-list (on*, style, srcset, formaction, xmlns...) are dropped.
    onIgnoreTagAttr: () => "",
  });
}

const filter = makeFilter(false);
const displayFilter = makeFilter(true);

/** Sanitises post HTML for storage. Run twice, the result does not change. */
export function sanitizePostHtml(html: string): string {
  return sanitizeWith(filter, html);
}

/**
 * Sanitises HTML for the page, in the browser and in the server renderer alike: as for storage, plus the
 * display attributes (displayAttr). Run twice, the result does not change.
 */
export function sanitizeForDisplay(html: string): string {
  return sanitizeWith(displayFilter, html);
}

function sanitizeWith(filter: FilterXSS, html: string): string {
  // xss marks an unclosed dropped element with "[removed]": the author's own brackets are encoded first
  // so that only those markers are taken out afterwards.
  const marked = html.replace(/\[(\/?removed\])/g, "&#91;$1");
  // Repeated: a first pass can join fragments (e.g. `<scr<script>ipt>`) that the next then removes.
  let out = filter.process(marked);
  for (let i = 0; i < 3; i++) {
    const again = filter.process(out);
    if (again === out) break;
    out = again;
  }
  return out.replace(/\[\/?removed\]/g, "").trim();
}

/** Plain text of an HTML fragment (tags removed, entities decoded, blanks collapsed). */
export function htmlToText(html: string): string {
  return decodeEntities(
    html
      .replace(/<(script|style)[\s\S]*?<\/\1\s*>/gi, " ")
      .replace(/<[^>]*>/g, " ")
      .replace(/<[^>]*$/g, " "),
  )
    .replace(/\s+/g, " ")
    .trim();
}

const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  colon: ":",
  tab: "\t",
  newline: "\n",
  sol: "/",
  lpar: "(",
  rpar: ")",
  period: ".",
  comma: ",",
  semi: ";",
  num: "#",
  excl: "!",
  quest: "?",
  equals: "=",
};

/**
 * Decodes character references: numeric ones with or without the `;` (as browsers do) and the common
 * named ones. Unknown names stay as they are (and are escaped again on output, so they stay inert).
 */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+;?|#\d+;?|[a-z]+;)/gi, (whole, raw: string) => {
    const e = raw.replace(/;$/, "");
    if (e[0] === "#") {
      const code =
        e[1] === "x" || e[1] === "X" ? Number.parseInt(e.slice(2), 16) : Number.parseInt(e.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "";
    }
    return NAMED[e.toLowerCase()] ?? whole;
  });
}

/** The first `max` characters of the text, cut at a word boundary when one is near. */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return (space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd();
}
