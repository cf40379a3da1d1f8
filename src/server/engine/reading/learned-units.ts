/**
 * A description cut into the sentences the learned reader judges, each in its setting (decision 034):
 * line by line, a heading line whole, other lines into sentences by nlp.ts; each sentence knows the
 * heading it sits under, whether it is a list item, where it stands, the sentence before it and whether
 * it is inside a code fence.
 */
import { isHeadingLine, isListLine, type SentenceInput } from "./learned-features";
import { analyse } from "./nlp";

export type DescriptionUnit = SentenceInput & {
  text: string;
  /** The 0-based line of the description the sentence is on. */
  line: number;
  /** True for a line the layout marks as a heading ("# Goals", "**Steps to reproduce**", "Non-goals:"). */
  headingLine: boolean;
};

const FENCE = /^\s*(?:```|~~~)/;

export function unitsOf(description: string): DescriptionUnit[] {
  const lines = description.replace(/\r\n?/g, "\n").split("\n");
  const units: Omit<DescriptionUnit, "position" | "previous">[] = [];
  let heading: string | null = null;
  let inCode = false;
  lines.forEach((raw, lineNo) => {
    const line = raw.trim();
    if (line === "") return;
    if (FENCE.test(line)) {
      units.push({ text: line, line: lineNo, heading, listItem: false, inCode: true, headingLine: false });
      inCode = !inCode;
      return;
    }
    if (inCode) {
      units.push({ text: line, line: lineNo, heading, listItem: false, inCode: true, headingLine: false });
      return;
    }
    const next = lines.slice(lineNo + 1).find((l) => l.trim() !== "") ?? null;
    if (isHeadingLine(line, next)) {
      units.push({ text: line, line: lineNo, heading, listItem: false, inCode: false, headingLine: true });
      heading = line;
      return;
    }
    const listItem = isListLine(line);
    analyse(line).forEach((s, i) => {
      units.push({
        text: s.text,
        line: lineNo,
        heading,
        listItem: listItem && i === 0,
        inCode: false,
        headingLine: false,
        tokens: s.tokens,
      });
    });
  });
  return units.map((u, i) => ({
    ...u,
    position: units.length > 1 ? i / (units.length - 1) : 0,
    previous: i > 0 ? units[i - 1]!.text : null,
  }));
}
