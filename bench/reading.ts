/**
 * How long the offline planner takes to read a description and outline it (issue 28): the whole corpus,
 * real text at the longest description allowed, and hostile shapes a stranger can send (long runs of list
 * markers, commas, "with" lists, brackets). Each row is the median of a few runs, in milliseconds.
 */
import { performance } from "node:perf_hooks";
import { briefOfText } from "../src/server/engine/brief";
import { buildOutline } from "../src/server/engine/planners/offline/outline";
import { DESCRIPTION_MAX } from "../src/shared/schemas/tasks";
import { CORPUS } from "../tests/eval/corpus/index";
import { percentile } from "./stats";

const RUNS = 5;
const fill = (unit: string) =>
  unit.repeat(Math.ceil(DESCRIPTION_MAX / unit.length)).slice(0, DESCRIPTION_MAX);

function plan(text: string) {
  const brief = briefOfText(text);
  buildOutline(brief, { maxDepth: 4, maxSubtasks: 7 });
  return brief.scope.requirements.length;
}

function median(run: () => void) {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    run();
    times.push(performance.now() - t);
  }
  return Number(percentile(times, 50).toFixed(1));
}

export function benchReading() {
  const real = CORPUS.map((c) => c.description).join("\n\n");
  const texts: [string, string][] = [
    [`real text, ${DESCRIPTION_MAX.toLocaleString("en")} characters`, real.slice(0, DESCRIPTION_MAX)],
    ["numbered markers with nothing after them", fill("1. \n")],
    ["'with' lists closed by 'and'", fill("an app with a, b and c, with ")],
    ["one comma list", `a${fill(", b").slice(1)}`],
    ["colon lists", fill("Head: a, b, c. ")],
    ["nested brackets", `${"(".repeat(DESCRIPTION_MAX / 2)}${")".repeat(DESCRIPTION_MAX / 2)}`],
    ["one word", "x".repeat(DESCRIPTION_MAX)],
  ];
  return [
    {
      text: `the corpus (${CORPUS.length} descriptions, one after another)`,
      chars: real.length,
      ms: median(() => {
        for (const c of CORPUS) plan(c.description);
      }),
    },
    ...texts.map(([text, body]) => ({ text, chars: body.length, ms: median(() => plan(body)) })),
  ];
}
