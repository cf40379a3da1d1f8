import { extractScope } from "./src/server/engine/reading/requirements";
const t = process.argv[2]!.replace(/\\n/g, "\n");
const s = extractScope(t); console.log(s.title, "|", s.requirements.map(r => r.text), "| NG", s.nonGoals, "| ctx", s.context);
console.log("repro", s.reproduction, "obs", s.observed);
