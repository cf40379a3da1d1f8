/**
 * `text` in a Markdown fenced block it cannot close: a closing fence needs a run of backticks at least as
 * long as the opening one, so the fence is one longer than the longest run inside (and at least three).
 * For text written by people or agents, handed to a model as data (decision 021).
 */
export function fenced(text: string, info = ""): string {
  let longest = 0;
  for (const run of text.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${text}${text.endsWith("\n") ? "" : "\n"}${fence}\n`;
}
