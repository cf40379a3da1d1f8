/**
 * The plain text of a JIRA description in wiki markup, as JIRA's REST v2 and its webhooks give it (the
 * "Text Formatting Notation" help), in the lines `adfText` reads from the same description in ADF (v3):
 * each block's text on a line of its own, without markup, blank lines dropped. So a delivery that did not
 * change the description reads as the same text, and one that did reads as what its author wrote.
 */
export function wikiText(markup: string): string {
  const lines: string[] = [];
  let fenced = false;
  for (const raw of markup.replace(/\r\n?/g, "\n").split("\n")) {
    // {code}, {noformat}, {quote}, {panel:…}: the tags go; a code block's lines are kept as written.
    const fence = /^\s*\{(code|noformat)(?::[^}]*)?\}\s*$/.test(raw);
    if (fence) {
      fenced = !fenced;
      continue;
    }
    if (fenced) {
      lines.push(raw);
      continue;
    }
    let line = raw.replace(/\{(quote|panel|color)(?::[^}]*)?\}/g, "");
    // A table row is one line a cell, as ADF's cells are paragraphs.
    if (/^\s*\|/.test(line)) {
      lines.push(...line.split(/\|\|?/).map(inline));
      continue;
    }
    line = line
      .replace(/^\s*h[1-6]\.\s+/, "")
      .replace(/^\s*bq\.\s+/, "")
      .replace(/^\s*[*#-]+\s+/, "");
    lines.push(...inline(line).split("\n"));
  }
  return lines
    .map((l) => l.trim())
    .filter(Boolean)
    .join("\n");
}

/** A marker pair around a phrase: at a word's edge, not inside one ("sign-in" keeps its hyphen). */
const pair = (m: string) =>
  new RegExp(`(^|[\\s(\\[{>])${m}(?=\\S)((?:\\\\.|[^\\\\])*?\\S)${m}(?=$|[\\s).,;:!?\\]}<])`, "g");
const MARKS = ["\\*", "_", "\\?\\?", "-", "\\+", "\\^", "~"].map(pair);

function inline(text: string): string {
  let t = text
    .replace(/\\\\(?!\\)/g, "\n") // \\ is a line break
    .replace(/!([^!\s][^!]*)!/g, "") // an image or attachment
    .replace(/\{\{(.*?)\}\}/g, "$1") // monospace
    .replace(/\[([^|\]]*)\|([^\]]*)\]/g, "$1") // [text|url]
    .replace(/\[(~?[^\]\s]+)\]/g, "$1"); // [url], [~account]
  for (const re of MARKS) t = t.replace(re, "$1$2");
  // A backslash escapes the character after it.
  return t.replace(/\\(.)/g, "$1");
}
