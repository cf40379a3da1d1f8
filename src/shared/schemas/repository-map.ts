import { z } from "zod";

/**
 * A repository map (issue 42): the smallest faithful picture of a codebase that planning needs, and never
 * the files' contents. Built on the user's machine from a checkout (`atomize new --repo`, honouring
 * .gitignore) or on the server from GitHub's API (a linked repository), and sent as `repository_map` on
 * `POST /api/tasks`. Its limits are part of the API: a map over them is refused with 422 and a sentence,
 * and a builder stops at them (saying so in `truncated`).
 */
export const REPOSITORY_MAP_LIMITS = {
  /** Paths in the tree (a bigger tree keeps its first paths in sorted order and says so). */
  paths: 20_000,
  /** Top-level symbols in all, and per file. */
  symbols: 20_000,
  symbolsPerFile: 60,
  /** Manifests (package.json, pyproject.toml, go.mod, Dockerfile, CI files, ...) and dependencies each. */
  manifests: 200,
  dependenciesPerManifest: 400,
  /** The README's headings and the text of its first paragraphs. */
  readmeHeadings: 60,
  readmeIntroChars: 2_000,
  codeowners: 200,
  /** A path, a symbol's name. */
  pathChars: 400,
  nameChars: 200,
  /** The whole map as JSON. */
  bytes: 4_000_000,
} as const;

export const MANIFEST_KINDS = [
  "npm",
  "python",
  "go",
  "cargo",
  "maven",
  "gradle",
  "bundler",
  "composer",
  "dotnet",
  /** A Prisma schema: its datasource's provider is the database. */
  "prisma",
  "docker",
  "ci",
  "iac",
] as const;
export type ManifestKind = (typeof MANIFEST_KINDS)[number];

export const SYMBOL_KINDS = ["function", "class", "route", "model", "table", "type", "constant"] as const;
export type SymbolKind = (typeof SYMBOL_KINDS)[number];

const L = REPOSITORY_MAP_LIMITS;
const path = z
  .string()
  .min(1, "a path is empty")
  .max(L.pathChars, `a path is at most ${L.pathChars} characters`)
  .refine((p) => !p.startsWith("/") && !p.split("/").includes(".."), {
    error: "paths are relative to the repository, without ..",
  });
const name = z.string().min(1).max(L.nameChars, `a name is at most ${L.nameChars} characters`);

export const repositoryFile = z.strictObject({
  path,
  /** Bytes. */
  size: z.number().int().min(0),
  /** The language its extension says (TypeScript, Python, ...), or null. */
  language: z.string().max(40).nullable(),
});

export const repositoryManifest = z.strictObject({
  path,
  kind: z.enum(MANIFEST_KINDS),
  /** Package names it depends on (npm, PyPI, Go modules, crates, ...), or base images, actions, providers. */
  dependencies: z
    .array(name)
    .max(L.dependenciesPerManifest, `a manifest lists at most ${L.dependenciesPerManifest} dependencies`),
  /** What it says about the runtime: "node >=20", "python >=3.11", "go 1.22", a base image. */
  runtime: z.string().max(100).nullable(),
  /** Script names (npm scripts, make targets), for the commands that build and test. */
  scripts: z.array(name).max(100),
});
export type RepositoryManifest = z.infer<typeof repositoryManifest>;

export const repositorySymbol = z.strictObject({ name, kind: z.enum(SYMBOL_KINDS) });

export const repositoryMap = z
  .strictObject({
    version: z.literal(1, { error: "version must be 1" }),
    source: z.enum(["local", "github"]),
    /** The folder's or repository's name. */
    name: z.string().min(1).max(200),
    /** The commit it was read at, when known. */
    commit: z.string().max(64).nullable(),
    files: z
      .array(repositoryFile)
      .max(
        L.paths,
        `a map has at most ${L.paths} paths: map a part of the repository (--repo accepts a folder)`,
      ),
    /** Whether the builder stopped at a limit (paths, symbols), so the map is a part of the repository. */
    truncated: z.boolean(),
    manifests: z.array(repositoryManifest).max(L.manifests, `a map has at most ${L.manifests} manifests`),
    readme: z
      .strictObject({
        path,
        headings: z.array(z.string().max(200)).max(L.readmeHeadings),
        intro: z.string().max(L.readmeIntroChars),
      })
      .nullable(),
    /** Top-level symbols of source files: exported functions and classes, routes, models and tables. */
    symbols: z
      .array(
        z.strictObject({
          path,
          names: z
            .array(repositorySymbol)
            .max(L.symbolsPerFile, `a file lists at most ${L.symbolsPerFile} symbols`),
        }),
      )
      .max(L.paths),
    /** Folders that hold tests. */
    tests: z.array(path).max(500),
    codeowners: z
      .array(z.strictObject({ pattern: z.string().max(L.pathChars), owners: z.array(name).max(20) }))
      .max(L.codeowners),
  })
  .superRefine((map, ctx) => {
    const total = map.symbols.reduce((n, s) => n + s.names.length, 0);
    if (total > L.symbols)
      ctx.addIssue({ code: "custom", path: ["symbols"], message: `a map has at most ${L.symbols} symbols` });
  });
export type RepositoryMap = z.infer<typeof repositoryMap>;

/** A leaf's likely files (issue 42): existing paths ranked from its words, or a new file it needs. */
export const FILE_CONFIDENCES = ["high", "medium", "low"] as const;
export const taskFile = z.object({
  path: z.string().max(L.pathChars),
  confidence: z.enum(FILE_CONFIDENCES),
  /** A file the task creates (none exists for it yet). */
  new: z.boolean(),
});
export type TaskFile = z.infer<typeof taskFile>;
