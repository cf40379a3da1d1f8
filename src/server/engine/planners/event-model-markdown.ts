import type { EventModelStructure } from "../../../shared/schemas/plan";

/** Text from a model, safe inside markdown: one line, no HTML, no markdown control at the start. */
function inline(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .trim()
    .replace(/</g, "&lt;")
    .replace(/^([#>*+-]|\d+\.)\s/, "\\$1 ");
}

const item = (name: string, description: string) =>
  description.trim() ? `- **${inline(name)}**: ${inline(description)}` : `- **${inline(name)}**`;

const names = (label: string, list: string[]) =>
  list.length > 0 ? [`- ${label}: ${list.map((n) => `\`${inline(n).replace(/`/g, "'")}\``).join(", ")}`] : [];

/**
 * The readable event model, rendered from its structure, so the document and the model never disagree
 * and the model spends no output tokens on prose. Sections with nothing in them are left out.
 */
export function renderEventModelMarkdown(model: EventModelStructure, title?: string): string {
  const stated = model.events.length + model.commands.length + model.read_models.length;
  if (stated === 0 && model.swimlanes.length === 0 && model.chapters.length === 0) return "";
  const md: string[] = [`# Event model${title ? `: ${inline(title)}` : ""}`, ""];
  md.push(
    `${model.swimlanes.length} swimlane${model.swimlanes.length === 1 ? "" : "s"}, ${model.commands.length} command${model.commands.length === 1 ? "" : "s"}, ${model.events.length} event${model.events.length === 1 ? "" : "s"} and ${model.read_models.length} read model${model.read_models.length === 1 ? "" : "s"}. Commands express intent, events record facts in the past tense, read models are the views built from events.`,
    "",
  );
  md.push("## Swimlanes", "");
  for (const lane of model.swimlanes) {
    md.push(`### ${inline(lane.name)}`, "");
    if (lane.description.trim()) md.push(inline(lane.description), "");
    md.push(
      ...names("Commands", lane.commands),
      ...names("Events", lane.events),
      ...names("Read models", lane.read_models),
      "",
    );
  }
  const section = (heading: string, list: Array<{ name: string; description: string }>) => {
    if (list.length > 0) md.push(`## ${heading}`, "", ...list.map((x) => item(x.name, x.description)), "");
  };
  section("Events", model.events);
  section("Commands", model.commands);
  section("Read models", model.read_models);
  section("User interactions", model.user_interactions);
  section("Automations", model.automations);
  if (model.chapters.length > 0) md.push("## Chapters", "");
  for (const chapter of model.chapters) {
    md.push(`### ${inline(chapter.name)}`, "");
    if (chapter.description.trim()) md.push(inline(chapter.description), "");
    for (const sub of chapter.sub_chapters) {
      md.push(`#### ${inline(sub.name)}`, "", ...sub.slices.map((s) => `- ${inline(s)}`), "");
    }
  }
  return md.join("\n").trim().slice(0, 100_000);
}
