/**
 * Long descriptions for the tests that every text the API accepts plans (decision 033): synthetic shapes
 * people paste (long lists, one long paragraph, hundreds of headings, tables, code, unicode, very long
 * lines, punctuation or URLs only), the longest texts of the project's corpus and of the external corpus,
 * and each corpus joined up to DESCRIPTION_MAX.
 *
 * The external corpus (`shared/corpus/*.json`, beside the repository) is evaluation data written by
 * others: it is read here at run time and its text is never copied into the project.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DESCRIPTION_MAX } from "../../src/shared/schemas/tasks";
import { CORPUS } from "../eval/corpus/index";

export type LongText = { name: string; description: string };

const toLimit = (text: string) => text.slice(0, DESCRIPTION_MAX).trim();
const WORDS = ["invoice", "customer", "report", "export", "dashboard", "booking", "payment", "schedule"];
const word = (i: number) => WORDS[i % WORDS.length]!;
const VERBS = ["create", "edit", "archive", "search", "share", "print", "approve", "import", "tag", "sort"];
const verb = (i: number) => VERBS[i % VERBS.length]!;
/** Distinct wording per item, so the reader's near-duplicate merge keeps them apart. */
const item = (i: number) => `${verb(i)} ${word(i)}s by ${word(i + 3)} ${verb(i + 7)} rule ${i}`;

/** Synthetic texts of the shapes that broke the outline's bounds, each as long as they come. */
export function syntheticTexts(): LongText[] {
  const texts: [string, string][] = [
    [
      "200 bullets",
      `Office tool\n\n${Array.from({ length: 200 }, (_, i) => `- Staff can ${item(i)}`).join("\n")}`,
    ],
    [
      "bullets to the limit",
      `Office tool\n\n${Array.from({ length: 900 }, (_, i) => `- Staff can ${item(i)}`).join("\n")}`,
    ],
    [
      "one 20k-character paragraph",
      Array.from(
        { length: 500 },
        (_, i) => `The system must ${item(i)} and it should ${verb(i + 2)} the ${word(i + 5)}.`,
      ).join(" "),
    ],
    [
      "300 headings",
      Array.from({ length: 300 }, (_, i) => `## ${word(i)} area ${i}\n- Users can ${item(i)}`).join("\n"),
    ],
    ["headings only", Array.from({ length: 900 }, (_, i) => `# Heading ${i} ${word(i)}`).join("\n")],
    [
      "deeply nested lists",
      Array.from({ length: 400 }, (_, i) => `${"  ".repeat(i % 16)}- The app must ${item(i)}`).join("\n"),
    ],
    [
      "a huge table",
      `# Data\n\n| name | kind | what |\n|---|---|---|\n${Array.from({ length: 900 }, (_, i) => `| ${word(i)} ${i} | ${word(i + 1)} | users can ${item(i)} |`).join("\n")}`,
    ],
    [
      "many code blocks",
      Array.from(
        { length: 300 },
        (_, i) => `Users can ${item(i)}.\n\`\`\`js\nconst x${i} = ${i};\n\`\`\``,
      ).join("\n"),
    ],
    [
      "unicode",
      Array.from(
        { length: 500 },
        (_, i) => `- Пользователи могут ${verb(i)} 数据 ${i} 🚀 über ñandú ${word(i)}`,
      ).join("\n"),
    ],
    [
      "lines of 5,000 characters",
      Array.from(
        { length: 4 },
        (_, i) => `- Users can ${Array.from({ length: 700 }, (_, j) => word(i + j)).join(" ")}`,
      ).join("\n"),
    ],
    [
      "5,000 characters without a space",
      Array.from({ length: 4 }, (_, i) => `Users must ${"x".repeat(4990)} ${i}`).join("\n"),
    ],
    [
      "unclosed brackets",
      `Club site\n\n${Array.from({ length: 60 }, (_, i) => `- Members can ${item(i)} (${Array.from({ length: 40 }, (_, j) => word(i + j)).join(" ")}`).join("\n")}`,
    ],
    ["only punctuation", "!?.,;:-*#()[]{}<>/\\|@$%^&~`'\"\n".repeat(700)],
    [
      "only URLs",
      Array.from({ length: 500 }, (_, i) => `https://example.com/path/${i}/${word(i)}`).join("\n"),
    ],
    [
      "numbered steps",
      `## Steps\n${Array.from({ length: 600 }, (_, i) => `${i + 1}. ${item(i)}`).join("\n")}`,
    ],
    [
      "a list inside one sentence",
      `A shop with ${Array.from({ length: 900 }, (_, i) => `${word(i)} ${verb(i)} ${i}`).join(", ")} and more.`,
    ],
    [
      "stated facts and actors",
      Array.from(
        { length: 400 },
        (_, i) => `- When a payment ${i} fails, admins can ${item(i)}\n- As a clerk I want to ${item(i + 1)}`,
      ).join("\n"),
    ],
    ["an arrow chain", Array.from({ length: 900 }, (_, i) => `${verb(i)}${i}`).join(" → ")],
    [
      "a bug report with 400 steps",
      `Login button does nothing on Safari\n## Steps to reproduce\n${Array.from({ length: 400 }, (_, i) => `${i + 1}. click ${word(i)} ${i}`).join("\n")}\n## Expected\nIt signs in\n## Actual\nNothing happens`,
    ],
    [
      "a long migration",
      `Migrate from Rails 6.1 to 7.1\n## Steps\n${Array.from({ length: 500 }, (_, i) => `${i + 1}. Update ${item(i)}`).join("\n")}`,
    ],
  ];
  return texts.map(([name, text]) => ({ name, description: toLimit(text) }));
}

/** The `count` longest texts of a list, and all of them joined (longest first) up to DESCRIPTION_MAX. */
function longestAndJoined(source: string, texts: LongText[], count: number): LongText[] {
  const byLength = [...texts].sort((a, b) => b.description.length - a.description.length);
  return [
    ...byLength.slice(0, count).map((t) => ({ name: `${source}: ${t.name}`, description: t.description })),
    { name: `${source}: all joined`, description: toLimit(byLength.map((t) => t.description).join("\n\n")) },
  ];
}

/** The project corpus (tests/eval/corpus): its five longest texts, and all of them joined. */
export function corpusTexts(): LongText[] {
  return longestAndJoined(
    "corpus",
    CORPUS.map((c) => ({ name: c.id, description: c.description })),
    5,
  );
}

/**
 * Where the external corpus is: `shared/corpus` beside the repository (CI keeps `shared/` next to its
 * clone), or beside a folder above it (a worktree kept a level further down).
 */
export function externalCorpusDir(): string {
  const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
  for (let dir = repoRoot; ; dir = path.dirname(dir)) {
    const candidate = path.resolve(dir, "../shared/corpus");
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir)
      throw new Error(
        `The external corpus is missing: expected it at ${path.resolve(repoRoot, "../shared/corpus")}`,
      );
  }
}

/** The external corpus: its five longest texts, and all of them joined; read from disk, never copied. */
export function externalTexts(): LongText[] {
  const dir = externalCorpusDir();
  const cases = readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .flatMap(
      (f) => JSON.parse(readFileSync(path.join(dir, f), "utf8")) as { key: string; description: string }[],
    );
  if (cases.length === 0) throw new Error(`No cases in the external corpus at ${dir}`);
  return longestAndJoined(
    "external",
    cases.map((c) => ({ name: c.key, description: c.description })),
    5,
  );
}
