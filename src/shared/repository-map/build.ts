import { parse as parseToml } from "smol-toml";
import {
  REPOSITORY_MAP_LIMITS as L,
  type ManifestKind,
  type RepositoryManifest,
  type RepositoryMap,
} from "../schemas/repository-map";
import { symbolsOf } from "./symbols";

/**
 * Builds a repository map (issue 42) from a tree of paths and a way to read a few of its files: the
 * manifests, the README, CODEOWNERS and the source files' top-level symbols. The same code runs on the
 * user's machine (the CLI reads a checkout) and on the server (GitHub's trees and contents), so both
 * produce the same map of the same code. Nothing of a file's contents is kept but what is listed here.
 */

export type TreeEntry = { path: string; size: number };
export type MapInput = {
  source: "local" | "github";
  name: string;
  commit: string | null;
  tree: TreeEntry[];
  /** A file's text, or null when it cannot be read (too big, binary, gone). */
  read: (path: string) => Promise<string | null>;
};

/** Source files larger than this are listed but not read for symbols (generated or vendored code). */
export const SYMBOL_FILE_MAX_BYTES = 256 * 1024;
/** Files read for symbols, at most: a map of a huge tree stops reading (and says so) rather than take minutes. */
export const SYMBOL_FILES_MAX = 5_000;

const LANGUAGES: Record<string, string> = {
  ts: "TypeScript",
  tsx: "TypeScript",
  mts: "TypeScript",
  cts: "TypeScript",
  js: "JavaScript",
  jsx: "JavaScript",
  mjs: "JavaScript",
  cjs: "JavaScript",
  py: "Python",
  go: "Go",
  rb: "Ruby",
  java: "Java",
  kt: "Kotlin",
  kts: "Kotlin",
  cs: "C#",
  php: "PHP",
  rs: "Rust",
  swift: "Swift",
  scala: "Scala",
  ex: "Elixir",
  exs: "Elixir",
  c: "C",
  h: "C",
  cpp: "C++",
  hpp: "C++",
  sql: "SQL",
  prisma: "Prisma",
  graphql: "GraphQL",
  gql: "GraphQL",
  vue: "Vue",
  svelte: "Svelte",
  html: "HTML",
  css: "CSS",
  scss: "CSS",
  md: "Markdown",
  yml: "YAML",
  yaml: "YAML",
  json: "JSON",
  toml: "TOML",
  tf: "Terraform",
  sh: "Shell",
  dart: "Dart",
};

export function languageOf(path: string): string | null {
  const base = path.split("/").at(-1)!;
  if (base === "Dockerfile" || base.startsWith("Dockerfile.")) return "Dockerfile";
  const ext = base.includes(".") ? base.split(".").at(-1)!.toLowerCase() : "";
  return LANGUAGES[ext] ?? null;
}

const SYMBOL_LANGUAGES = new Set([
  "TypeScript",
  "JavaScript",
  "Python",
  "Go",
  "Ruby",
  "Java",
  "Kotlin",
  "C#",
  "PHP",
  "Rust",
  "SQL",
  "Prisma",
  "GraphQL",
]);

/** Which manifest a path is, if any. */
export function manifestKindOf(path: string): ManifestKind | null {
  const base = path.split("/").at(-1)!;
  if (base === "package.json") return "npm";
  if (base === "pyproject.toml" || /^requirements[\w.-]*\.txt$/.test(base) || base === "Pipfile")
    return "python";
  if (base === "go.mod") return "go";
  if (base === "Cargo.toml") return "cargo";
  if (base === "pom.xml") return "maven";
  if (base === "build.gradle" || base === "build.gradle.kts") return "gradle";
  if (base === "Gemfile") return "bundler";
  if (base === "composer.json") return "composer";
  if (base.endsWith(".csproj")) return "dotnet";
  if (base === "schema.prisma") return "prisma";
  if (
    base === "Dockerfile" ||
    base.startsWith("Dockerfile.") ||
    /^(docker-)?compose[\w.-]*\.ya?ml$/.test(base)
  )
    return "docker";
  if (
    path.startsWith(".github/workflows/") ||
    base === ".gitlab-ci.yml" ||
    base === "Jenkinsfile" ||
    path.startsWith(".circleci/")
  )
    return "ci";
  if (
    base.endsWith(".tf") ||
    base === "serverless.yml" ||
    base === "template.yaml" ||
    path.startsWith("k8s/") ||
    path.startsWith("helm/")
  )
    return "iac";
  return null;
}

const unique = (xs: string[]) => [...new Set(xs.map((x) => x.trim()).filter(Boolean))];
const pkgName = (spec: string) =>
  spec
    .trim()
    .split(/[\s<>=!~;[(@]/)[0]!
    .toLowerCase();

/** A value deep in parsed TOML or JSON, or undefined. */
function at(value: unknown, ...keys: string[]): unknown {
  let v = value;
  for (const k of keys) v = v && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined;
  return v;
}

function keysOf(v: unknown): string[] {
  return v && typeof v === "object" && !Array.isArray(v) ? Object.keys(v) : [];
}

/** What a manifest says: its dependencies, the runtime and the scripts. Unreadable: what its name says. */
export function readManifest(path: string, kind: ManifestKind, text: string): RepositoryManifest {
  let dependencies: string[] = [];
  let runtime: string | null = null;
  let scripts: string[] = [];
  try {
    switch (kind) {
      case "npm": {
        const pkg = JSON.parse(text) as Record<string, unknown>;
        dependencies = [
          ...keysOf(pkg.dependencies),
          ...keysOf(pkg.devDependencies),
          ...keysOf(pkg.peerDependencies),
        ];
        const node = (pkg.engines as Record<string, unknown> | undefined)?.node;
        runtime = typeof node === "string" ? `node ${node}` : null;
        scripts = keysOf(pkg.scripts);
        break;
      }
      case "python": {
        if (path.endsWith(".toml")) {
          const t = parseToml(text);
          const list = (v: unknown) => (Array.isArray(v) ? v.map(String).map(pkgName) : []);
          const optional = at(t, "project", "optional-dependencies");
          dependencies = [
            ...list(at(t, "project", "dependencies")),
            ...(optional && typeof optional === "object" ? Object.values(optional).flatMap(list) : []),
            ...keysOf(at(t, "tool", "poetry", "dependencies")).filter((d) => d !== "python"),
            ...keysOf(at(t, "tool", "poetry", "group", "dev", "dependencies")),
          ];
          const py = at(t, "project", "requires-python") ?? at(t, "tool", "poetry", "dependencies", "python");
          runtime = typeof py === "string" ? `python ${py}` : null;
          scripts = keysOf(at(t, "project", "scripts"));
        } else {
          dependencies = text
            .split("\n")
            .map((l) => l.replace(/#.*/, "").trim())
            .filter((l) => l && !l.startsWith("-") && !l.startsWith("["))
            .map(pkgName);
        }
        break;
      }
      case "go": {
        runtime = text.match(/^go\s+([\d.]+)/m)?.[1] ? `go ${text.match(/^go\s+([\d.]+)/m)![1]}` : null;
        dependencies = [
          ...text.matchAll(/^\s*(?:require\s+)?([\w.-]+\.[\w.-]+\/[\w./-]+)\s+v[\w.+-]+/gm),
        ].map((m) => m[1]!);
        break;
      }
      case "cargo": {
        const t = parseToml(text);
        dependencies = [...keysOf(at(t, "dependencies")), ...keysOf(at(t, "dev-dependencies"))];
        const rust = at(t, "package", "rust-version");
        runtime = typeof rust === "string" ? `rust ${rust}` : null;
        break;
      }
      case "maven":
        dependencies = [...text.matchAll(/<artifactId>\s*([\w.-]+)\s*<\/artifactId>/g)]
          .map((m) => m[1]!)
          .slice(1);
        runtime = text.match(/<(?:java\.version|maven\.compiler\.release)>\s*([\d.]+)/)?.[1]
          ? `java ${text.match(/<(?:java\.version|maven\.compiler\.release)>\s*([\d.]+)/)![1]}`
          : null;
        break;
      case "gradle":
        dependencies = [
          ...text.matchAll(
            /(?:implementation|api|testImplementation|runtimeOnly|compileOnly)\s*\(?\s*["']([\w.-]+):([\w.-]+)/g,
          ),
        ].map((m) => m[2]!);
        break;
      case "bundler":
        dependencies = [...text.matchAll(/^\s*gem\s+["']([\w.-]+)["']/gm)].map((m) => m[1]!);
        runtime = text.match(/^\s*ruby\s+["']([\d.]+)/m)?.[1]
          ? `ruby ${text.match(/^\s*ruby\s+["']([\d.]+)/m)![1]}`
          : null;
        break;
      case "composer": {
        const c = JSON.parse(text) as Record<string, unknown>;
        const req = [...keysOf(c.require), ...keysOf(c["require-dev"])];
        dependencies = req.filter((d) => d !== "php" && !d.startsWith("ext-"));
        const php = (c.require as Record<string, unknown> | undefined)?.php;
        runtime = typeof php === "string" ? `php ${php}` : null;
        scripts = keysOf(c.scripts);
        break;
      }
      case "dotnet":
        dependencies = [...text.matchAll(/<PackageReference\s+Include="([\w.-]+)"/g)].map((m) => m[1]!);
        runtime = text.match(/<TargetFramework>([\w.]+)<\/TargetFramework>/)?.[1] ?? null;
        break;
      case "prisma":
        dependencies = [...text.matchAll(/^\s*provider\s*=\s*"([\w-]+)"/gm)]
          .map((m) => m[1]!)
          .filter((p) => !p.startsWith("prisma-"));
        break;
      case "docker":
        dependencies = [
          ...text.matchAll(/^\s*FROM\s+(?:--platform=\S+\s+)?([\w./:-]+)/gim),
          ...text.matchAll(/^\s*image:\s*["']?([\w./:-]+)/gm),
        ].map((m) => m[1]!.split(":")[0]!);
        runtime = text.match(/^\s*FROM\s+(?:--platform=\S+\s+)?([\w./:-]+)/im)?.[1] ?? null;
        break;
      case "ci":
        dependencies = [...text.matchAll(/uses:\s*["']?([\w./-]+)@/g)].map((m) => m[1]!);
        scripts = [...text.matchAll(/^\s*-?\s*run:\s*(.+)$/gm)].map((m) => m[1]!.trim().slice(0, 120));
        break;
      case "iac":
        dependencies = [...text.matchAll(/(?:provider|resource)\s+"(\w+)"/g)].map((m) => m[1]!);
        break;
    }
  } catch {
    // A manifest that does not parse is still a manifest: its kind says something.
  }
  return {
    path,
    kind,
    dependencies: unique(dependencies)
      .slice(0, L.dependenciesPerManifest)
      .map((d) => d.slice(0, L.nameChars)),
    runtime: runtime?.slice(0, 100) ?? null,
    scripts: unique(scripts)
      .slice(0, 100)
      .map((s) => s.slice(0, L.nameChars)),
  };
}

/** A README's headings and the text of its first paragraphs (not its code or badges). */
export function readReadme(text: string): { headings: string[]; intro: string } {
  const headings: string[] = [];
  const intro: string[] = [];
  let fence = false;
  for (const raw of text.split("\n")) {
    const line = raw.trimEnd();
    if (/^\s*(```|~~~)/.test(line)) {
      fence = !fence;
      continue;
    }
    if (fence) continue;
    const h = line.match(/^#{1,4}\s+(.+)/);
    if (h) {
      if (headings.length < L.readmeHeadings) headings.push(h[1]!.replace(/[#*`]/g, "").trim().slice(0, 200));
      continue;
    }
    if (!line.trim() || /^\s*(\[!\[|!\[|<)/.test(line)) continue;
    if (intro.join(" ").length < L.readmeIntroChars) intro.push(line.trim());
  }
  return { headings, intro: intro.join(" ").slice(0, L.readmeIntroChars) };
}

const TEST_DIR = /(^|\/)(tests?|__tests__|specs?|e2e|testing)(\/|$)/i;
const TEST_FILE =
  /(\.(test|spec)\.[cm]?[jt]sx?$|_test\.(go|py)$|(^|\/)test_[\w-]+\.py$|Tests?\.(java|kt|cs)$|_spec\.rb$)/;

/** The folders that hold tests: named so, or holding test files. */
export function testFolders(paths: string[]): string[] {
  const folders = new Set<string>();
  for (const p of paths) {
    const dir = p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : ".";
    const named = p.match(TEST_DIR);
    if (named)
      folders.add(p.slice(0, (named.index ?? 0) + named[0].replace(/\/$/, "").length).replace(/^\//, ""));
    else if (TEST_FILE.test(p)) folders.add(dir);
  }
  // A folder inside another test folder adds nothing.
  const sorted = [...folders].sort();
  return sorted.filter((f) => !sorted.some((g) => g !== f && f.startsWith(`${g}/`))).slice(0, 500);
}

export function readCodeowners(text: string): { pattern: string; owners: string[] }[] {
  return text
    .split("\n")
    .map((l) => l.replace(/#.*/, "").trim())
    .filter(Boolean)
    .map((l) => {
      const [pattern, ...owners] = l.split(/\s+/);
      return {
        pattern: pattern!.slice(0, L.pathChars),
        owners: owners.slice(0, 20).map((o) => o.slice(0, L.nameChars)),
      };
    })
    .slice(0, L.codeowners);
}

export async function buildRepositoryMap(input: MapInput): Promise<RepositoryMap> {
  const sorted = input.tree
    .filter(
      (e) =>
        e.path &&
        e.path.length <= L.pathChars &&
        !e.path.startsWith("/") &&
        !e.path.split("/").includes(".."),
    )
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  let truncated = sorted.length > L.paths;
  const tree = sorted.slice(0, L.paths);
  const files = tree.map((e) => ({
    path: e.path,
    size: Math.max(0, Math.round(e.size)),
    language: languageOf(e.path),
  }));
  const paths = files.map((f) => f.path);

  const manifests: RepositoryManifest[] = [];
  for (const f of files) {
    const kind = manifestKindOf(f.path);
    if (!kind || manifests.length >= L.manifests || f.path.includes("node_modules/")) continue;
    const text = f.size <= SYMBOL_FILE_MAX_BYTES ? await input.read(f.path) : null;
    manifests.push(
      text === null
        ? { path: f.path, kind, dependencies: [], runtime: null, scripts: [] }
        : readManifest(f.path, kind, text),
    );
  }

  const readmeFile = files.find((f) => /^readme(\.(md|markdown|rst|txt))?$/i.test(f.path));
  const readmeText =
    readmeFile && readmeFile.size <= SYMBOL_FILE_MAX_BYTES ? await input.read(readmeFile.path) : null;
  const readme =
    readmeFile && readmeText !== null ? { path: readmeFile.path, ...readReadme(readmeText) } : null;

  const ownersFile = ["CODEOWNERS", ".github/CODEOWNERS", "docs/CODEOWNERS"].find((p) => paths.includes(p));
  const ownersText = ownersFile ? await input.read(ownersFile) : null;

  const symbols: RepositoryMap["symbols"] = [];
  let total = 0;
  let read = 0;
  for (const f of files) {
    if (!f.language || !SYMBOL_LANGUAGES.has(f.language) || f.size > SYMBOL_FILE_MAX_BYTES || f.size === 0)
      continue;
    if (
      /(^|\/)(node_modules|vendor|dist|build|\.next|target)\//.test(f.path) ||
      /\.min\.js$|\.d\.ts$/.test(f.path)
    )
      continue;
    if (read >= SYMBOL_FILES_MAX || total >= L.symbols) {
      truncated = true;
      break;
    }
    read++;
    const text = await input.read(f.path);
    if (text === null) continue;
    const names = symbolsOf(text, f.language, Math.min(L.symbolsPerFile, L.symbols - total));
    if (names.length === 0) continue;
    total += names.length;
    symbols.push({ path: f.path, names });
  }

  return {
    version: 1,
    source: input.source,
    name: input.name.slice(0, 200) || "repository",
    commit: input.commit,
    files,
    truncated,
    manifests,
    readme,
    symbols,
    tests: testFolders(paths),
    codeowners: ownersText ? readCodeowners(ownersText) : [],
  };
}
