/**
 * The JSON object in a language model's answer: the model planner's (engine/planners/model) and the
 * answers a client's model gives through MCP sampling (mcp/sampling.ts).
 */

export type JsonAnswer = { ok: true; value: Record<string, unknown> } | { ok: false; problem: string };

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The object `text` holds as JSON (tolerating JSON encoded twice), or null. */
function parseObject(text: string): Record<string, unknown> | null {
  try {
    let value: unknown = JSON.parse(text.trim());
    if (typeof value === "string") value = JSON.parse(value);
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}

/** Index of the brace closing the object that opens at `start`, strings and escapes respected; -1 if none. */
function closingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i;
  }
  return -1;
}

/**
 * The JSON object in a model's answer. Hosted models with structured output answer with the bare object;
 * local servers (Ollama, vLLM, LM Studio) often wrap it: a `<think>` block first, a ``` fence (with or
 * without `json`), or sentences around it. Tried in that order: the whole text, each fenced block, then
 * the first balanced `{...}` that parses as an object.
 */
export function readJsonAnswer(text: string): JsonAnswer {
  if (/^\s*<(think|thinking)>/i.test(text) && !/<\/(think|thinking)>/i.test(text))
    return { ok: false, problem: "the answer stopped inside its <think> block" };
  const rest = text.replace(/<(think|thinking)>[\s\S]*?<\/\1>/gi, " ").trim();
  if (rest === "") return { ok: false, problem: "the answer was empty" };
  const whole = parseObject(rest);
  if (whole) return { ok: true, value: whole };
  for (const fence of rest.matchAll(/```[^\n`]*\n?([\s\S]*?)```/g)) {
    const fenced = parseObject(fence[1] ?? "");
    if (fenced) return { ok: true, value: fenced };
  }
  for (let start = rest.indexOf("{"), tries = 0; start !== -1 && tries < 200; tries++) {
    const end = closingBrace(rest, start);
    if (end === -1) break;
    const found = parseObject(rest.slice(start, end + 1));
    if (found) return { ok: true, value: found };
    start = rest.indexOf("{", start + 1);
  }
  return { ok: false, problem: "the answer contained no JSON object" };
}
