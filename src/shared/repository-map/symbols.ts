import { parse } from "@babel/parser";
import type { SymbolKind } from "../schemas/repository-map";

/**
 * A source file's top-level symbols (issue 42): what a planner matches a requirement's words against.
 * JavaScript and TypeScript are read with Babel's parser (exports, Express/Fastify/Hono-style routes,
 * ORM models and tables); other languages by their top-level declarations, line by line, which their
 * grammars make unambiguous at the top level (`def`, `class`, `func`, `type … struct`, annotations).
 */

export type FoundSymbol = { name: string; kind: SymbolKind };

const HTTP = new Set(["get", "post", "put", "patch", "delete", "all", "route", "use"]);
const ROUTERS = /^(app|router|api|server|routes|r|fastify|hono)$/i;
const TABLE_CALLS = new Set(["pgTable", "mysqlTable", "sqliteTable", "createTable", "table"]);

type Node = { type: string; [key: string]: unknown };

function stringArg(node: unknown): string | null {
  const n = node as Node | undefined;
  if (!n) return null;
  if (n.type === "StringLiteral") return String(n.value);
  if (n.type === "TemplateLiteral" && Array.isArray(n.quasis) && n.quasis.length === 1)
    return String((n.quasis[0] as { value: { cooked: string } }).value.cooked);
  return null;
}

function declared(node: Node, out: FoundSymbol[]) {
  if (!node) return;
  if (node.type === "FunctionDeclaration" || node.type === "TSDeclareFunction") {
    const id = node.id as { name: string } | null;
    if (id) out.push({ name: id.name, kind: "function" });
  } else if (node.type === "ClassDeclaration") {
    const id = node.id as { name: string } | null;
    if (id) out.push({ name: id.name, kind: "class" });
  } else if (node.type === "TSInterfaceDeclaration" || node.type === "TSTypeAliasDeclaration") {
    out.push({ name: (node.id as { name: string }).name, kind: "type" });
  } else if (node.type === "VariableDeclaration") {
    for (const d of node.declarations as Node[]) {
      const id = d.id as Node;
      if (id.type !== "Identifier") continue;
      const init = d.init as Node | null;
      const table = init ? tableOf(init) : null;
      if (table) out.push({ name: table, kind: "table" });
      const isFunction = init?.type === "ArrowFunctionExpression" || init?.type === "FunctionExpression";
      out.push({ name: String(id.name), kind: isFunction ? "function" : "constant" });
    }
  }
}

/** `pgTable("invoices", …)`, `mongoose.model("Invoice", …)`, `sequelize.define("invoice", …)`. */
function tableOf(call: Node): string | null {
  if (call.type !== "CallExpression") return null;
  const callee = call.callee as Node;
  const args = call.arguments as Node[];
  const fn =
    callee.type === "Identifier"
      ? String(callee.name)
      : callee.type === "MemberExpression" && (callee.property as Node).type === "Identifier"
        ? String((callee.property as Node).name)
        : null;
  if (!fn) return null;
  if (TABLE_CALLS.has(fn) || fn === "model" || fn === "define") return stringArg(args[0]);
  return null;
}

/** `app.get("/invoices", …)` at the top level: "GET /invoices". */
function routeOf(node: Node): string | null {
  if (node.type !== "ExpressionStatement") return null;
  let call = node.expression as Node;
  // app.route("/x").get(…): the path is the inner call's
  while (call.type === "CallExpression") {
    const callee = call.callee as Node;
    if (callee.type !== "MemberExpression") return null;
    const method =
      (callee.property as Node).type === "Identifier" ? String((callee.property as Node).name) : "";
    const object = callee.object as Node;
    const path = stringArg((call.arguments as Node[])[0]);
    if (object.type === "Identifier" && ROUTERS.test(String(object.name)) && HTTP.has(method.toLowerCase())) {
      return path
        ? `${method === "use" || method === "route" || method === "all" ? "" : `${method.toUpperCase()} `}${path}`
        : null;
    }
    if (object.type !== "CallExpression") return null;
    call = object;
  }
  return null;
}

/** `module.exports.x` / `exports.x` as an assignment's target: "x"; `module.exports` itself: "". */
function commonJsTarget(node: Node): string | null {
  if (node.type !== "MemberExpression" || node.computed) return null;
  const object = node.object as Node;
  const property = String((node.property as Node).name ?? "");
  if (object.type === "Identifier" && object.name === "module" && property === "exports") return "";
  if (object.type === "Identifier" && object.name === "exports") return property;
  const inner = commonJsTarget(object);
  return inner === "" ? property : null;
}

/**
 * CommonJS exports at the top level (most Node code without ES modules): `module.exports = { a, b }`,
 * `module.exports = name`, `exports.a = …`. Named as exported; a class where the file declares one.
 */
function commonJsExports(node: Node, classes: ReadonlySet<string>): FoundSymbol[] {
  if (node.type !== "ExpressionStatement") return [];
  const assign = node.expression as Node;
  if (assign.type !== "AssignmentExpression") return [];
  const target = commonJsTarget(assign.left as Node);
  if (target === null) return [];
  const kindOf = (name: string): SymbolKind => (classes.has(name) ? "class" : "function");
  if (target !== "") return [{ name: target, kind: kindOf(target) }];
  const value = assign.right as Node;
  if (value.type === "Identifier") return [{ name: String(value.name), kind: kindOf(String(value.name)) }];
  if (value.type === "ObjectExpression")
    return (value.properties as Node[]).flatMap((p) => {
      const key = p.type === "ObjectProperty" || p.type === "ObjectMethod" ? (p.key as Node) : null;
      return key?.type === "Identifier" ? [{ name: String(key.name), kind: kindOf(String(key.name)) }] : [];
    });
  return [];
}

function scriptSymbols(text: string, typescript: boolean): FoundSymbol[] {
  let body: Node[];
  try {
    body = parse(text, {
      sourceType: "unambiguous",
      errorRecovery: true,
      plugins: typescript ? ["typescript", "jsx", "decorators"] : ["jsx", "decorators"],
    }).program.body as unknown as Node[];
  } catch {
    return [];
  }
  const out: FoundSymbol[] = [];
  const classes = new Set(
    body.flatMap((n) => (n.type === "ClassDeclaration" && n.id ? [String((n.id as Node).name)] : [])),
  );
  for (const node of body) {
    if (node.type === "ExportNamedDeclaration" && node.declaration) declared(node.declaration as Node, out);
    else if (node.type === "ExportDefaultDeclaration") {
      const d = node.declaration as Node;
      const id = (d as { id?: { name: string } | null }).id;
      out.push({ name: id?.name ?? "default", kind: d.type === "ClassDeclaration" ? "class" : "function" });
    } else if (
      node.type === "FunctionDeclaration" ||
      node.type === "ClassDeclaration" ||
      node.type === "VariableDeclaration"
    ) {
      // Not exported: a route table or a model defined at the top level still counts.
      const local: FoundSymbol[] = [];
      declared(node, local);
      out.push(...local.filter((s) => s.kind === "table" || s.kind === "class"));
    } else {
      const route = routeOf(node);
      if (route) out.push({ name: route, kind: "route" });
      else out.push(...commonJsExports(node, classes));
    }
  }
  return out;
}

const LINE_RULES: Record<string, { re: RegExp; kind: SymbolKind; group?: number }[]> = {
  Python: [
    { re: /^@\w+\.(?:get|post|put|patch|delete|route)\(\s*["']([^"']+)["']/, kind: "route" },
    { re: /^class\s+(\w+)\s*\([^)]*\b(?:Model|Base|SQLModel|Document)\b/, kind: "model" },
    { re: /^class\s+(\w+)/, kind: "class" },
    { re: /^(?:async\s+)?def\s+([A-Za-z]\w*)/, kind: "function" },
  ],
  Go: [
    { re: /^func\s+(?:\([^)]*\)\s*)?([A-Z]\w*)/, kind: "function" },
    { re: /^type\s+([A-Z]\w*)\s+struct/, kind: "class" },
    { re: /\.(?:GET|POST|PUT|PATCH|DELETE|HandleFunc|Handle)\(\s*"([^"]+)"/, kind: "route" },
  ],
  Ruby: [
    { re: /^\s*class\s+(\w+)\s*<\s*(?:ApplicationRecord|ActiveRecord::Base)/, kind: "model" },
    { re: /^\s*class\s+([A-Z]\w*)/, kind: "class" },
    { re: /^\s*(?:get|post|put|patch|delete|resources?)\s+['":]([\w/]+)/, kind: "route" },
    { re: /^\s{0,2}def\s+(\w+)/, kind: "function" },
  ],
  Java: [
    { re: /@(?:Get|Post|Put|Patch|Delete|Request)Mapping\(\s*(?:value\s*=\s*)?"([^"]+)"/, kind: "route" },
    { re: /@Entity|@Table\(\s*name\s*=\s*"(\w+)"/, kind: "table" },
    { re: /^(?:public\s+)?(?:abstract\s+|final\s+)?(?:class|interface|record|enum)\s+(\w+)/, kind: "class" },
  ],
  Kotlin: [
    { re: /^(?:data\s+|abstract\s+|open\s+)?class\s+(\w+)/, kind: "class" },
    { re: /^fun\s+(?:<[^>]+>\s+)?(\w+)/, kind: "function" },
  ],
  "C#": [
    { re: /\[(?:Http(?:Get|Post|Put|Patch|Delete)|Route)\(\s*"([^"]+)"/, kind: "route" },
    {
      re: /^\s*(?:public\s+)?(?:abstract\s+|sealed\s+|static\s+|partial\s+)*(?:class|record|interface)\s+(\w+)/,
      kind: "class",
    },
  ],
  PHP: [
    { re: /Route::(?:get|post|put|patch|delete)\(\s*['"]([^'"]+)['"]/, kind: "route" },
    { re: /^(?:final\s+|abstract\s+)?class\s+(\w+)\s+extends\s+Model/, kind: "model" },
    { re: /^(?:final\s+|abstract\s+)?class\s+(\w+)/, kind: "class" },
    { re: /^function\s+(\w+)/, kind: "function" },
  ],
  Rust: [
    { re: /^pub\s+(?:async\s+)?fn\s+(\w+)/, kind: "function" },
    { re: /^pub\s+(?:struct|enum|trait)\s+(\w+)/, kind: "class" },
  ],
  SQL: [{ re: /create\s+table\s+(?:if\s+not\s+exists\s+)?["`]?(?:\w+\.)?["`]?(\w+)/i, kind: "table" }],
  Prisma: [{ re: /^model\s+(\w+)\s*\{/, kind: "model" }],
  GraphQL: [{ re: /^type\s+(\w+)/, kind: "type" }],
};

function lineSymbols(text: string, language: string): FoundSymbol[] {
  const rules = LINE_RULES[language];
  if (!rules) return [];
  const out: FoundSymbol[] = [];
  for (const line of text.split("\n")) {
    for (const rule of rules) {
      const m = line.match(rule.re);
      if (!m) continue;
      const name = m[1] ?? (rule.kind === "table" ? null : null);
      if (name) {
        const route =
          rule.kind === "route" ? (line.match(/\b(get|post|put|patch|delete)\b/i)?.[1] ?? "") : "";
        out.push({ name: route ? `${route.toUpperCase()} ${name}` : name, kind: rule.kind });
      }
      break;
    }
  }
  return out;
}

/** The top-level symbols of one file, by its language; at most `max`, each name once. */
export function symbolsOf(text: string, language: string | null, max: number): FoundSymbol[] {
  if (!language) return [];
  const found =
    language === "TypeScript" || language === "JavaScript"
      ? scriptSymbols(text, language === "TypeScript")
      : lineSymbols(text, language);
  const seen = new Set<string>();
  const out: FoundSymbol[] = [];
  for (const s of found) {
    const key = `${s.kind}:${s.name}`;
    if (seen.has(key) || s.name.length > 200) continue;
    seen.add(key);
    out.push(s);
    if (out.length >= max) break;
  }
  return out;
}
