import type { EventModelStructure, ProjectContext } from "../../../../shared/schemas/plan";
import { allNamed } from "../../reading/signals";
import type { Requirement } from "../../reading/types";
import type { ProjectBrief } from "../contract";
import { pointsForHours } from "./estimate";
import { idList, type Outline, type OutlineNode } from "./outline";

/**
 * Epics, user stories and the event model of the offline planner, from what the text states only:
 * epics are the first-level workstreams; a user story exists for each requirement that names who it is
 * for; the event model holds the actions those people take and the facts the text states ("when a
 * payment fails ..."), and is empty, not invented, when the text states none.
 */

const leaves = (n: OutlineNode): OutlineNode[] => (n.children.length ? n.children.flatMap(leaves) : [n]);

function actorName(actor: string): string {
  const a = actor.replace(/^the /i, "").trim();
  const singular = /(ss|staff|people|kids|anyone|everyone|team)$/i.test(a) ? a : a.replace(/s$/i, "");
  return singular.charAt(0).toUpperCase() + singular.slice(1);
}

const capitalise = (t: string) => t.charAt(0).toUpperCase() + t.slice(1);
const cut = (t: string, n: number) => (t.length > n ? `${t.slice(0, n - 3)}...` : t);

function priorityOf(r: Requirement): ProjectContext["user_stories"][number]["priority"] {
  if (/\b(could|nice[- ]to[- ]have|optional(ly)?|if time (allows|permits))\b/i.test(r.text))
    return "could_have";
  if (/\bshould\b/i.test(r.text) && !/\bshould be able\b/i.test(r.text)) return "should_have";
  return "must_have";
}

export function composeOutlineContext(outline: Outline, brief: ProjectBrief): ProjectContext {
  const streams = outline.workstreams.slice(0, 20);
  const epics = streams.map((stream, i) => {
    const covers = stream.nodes.flatMap((n) => n.covers);
    return {
      id: `E${i + 1}`,
      title: cut(stream.title, 200),
      description: cut(
        covers.length
          ? `Covers ${idList(covers)}: ${covers.map((r) => r.text).join("; ")}`
          : stream.nodes
              .flatMap(leaves)
              .map((n) => n.title)
              .join("; "),
        2000,
      ),
      priority: i === 0 ? 1 : i === streams.length - 1 ? 3 : 2,
    };
  });
  const stories: ProjectContext["user_stories"] = [];
  streams.forEach((stream, i) => {
    for (const node of stream.nodes.flatMap(leaves)) {
      const r = node.covers.length === 1 ? node.covers[0]! : null;
      if (!r?.actor || !r.action || stories.some((s) => s.action === r.action)) continue;
      stories.push({
        id: `US${stories.length + 1}`,
        epic_id: `E${i + 1}`,
        actor: cut(actorName(r.actor), 200),
        action: cut(r.action, 1000),
        benefit: cut(r.benefit ?? "", 1000),
        acceptance_criteria: node.criteria.map((c) => cut(c, 500)),
        story_points: pointsForHours(node.hours),
        priority: priorityOf(r),
      });
    }
  });
  const named = allNamed(outline.tech);
  const stack = brief.stack;
  const notChosen = "Not chosen yet";
  const practices = [
    "Keep each subtask to one pull request of at most about two developer-days",
    "Write each acceptance criterion as an automated test where it can be",
    "Trace every change back to the requirement (R1, R2, ...) it serves",
    ...(named.length === 0 && !stack ? ["Record the stack decision before building on it"] : []),
    ...(outline.kind === "feature" || outline.kind === "migration"
      ? ["Change the existing system in small steps that can each be undone"]
      : []),
    ...(outline.kind === "bug" ? ["Reproduce with a failing test before changing the code"] : []),
    ...(outline.kind === "performance"
      ? ["Measure before and after every change, on the same scenario"]
      : []),
    ...(outline.scope.nonGoals.length
      ? [cut(`Leave out what the description puts out of scope: ${outline.scope.nonGoals.join("; ")}`, 500)]
      : []),
  ];
  // On a repository (issue 42): what its manifests show, not a choice to make.
  const found = brief.repository?.stack;
  if (found?.sentence) {
    const FRONT = new Set(["React", "Vue", "Svelte", "Angular", "Next.js", "Nuxt"]);
    const front = found.frameworks.filter((f) => FRONT.has(f));
    const back = found.frameworks.filter((f) => !FRONT.has(f) || f === "Next.js" || f === "Nuxt");
    const data = [...found.databases, ...found.orms];
    return {
      tech_stack: {
        frontend: cut(front.join(", ") || "None found in the repository", 300),
        backend: cut(
          [found.runtime, ...back].filter(Boolean).join(", ") || "None found in the repository",
          300,
        ),
        database: cut(data.join(", ") || "None found in the repository", 300),
        deployment: cut(outline.tech.deployment.join(", ") || "As the repository does it today", 300),
        description: cut(`${found.sentence}, from the repository's manifests.`, 2000),
      },
      best_practices: practices.filter((p) => p !== "Record the stack decision before building on it"),
      epics,
      user_stories: stories.slice(0, 60),
    };
  }
  return {
    tech_stack: {
      frontend: cut(stack?.frontend_framework ?? (outline.tech.frontend.join(", ") || notChosen), 300),
      backend: cut(stack?.backend_language ?? (outline.tech.backend.join(", ") || notChosen), 300),
      database: cut(stack?.database ?? (outline.tech.database.join(", ") || notChosen), 300),
      deployment: cut(outline.tech.deployment.join(", ") || notChosen, 300),
      description: cut(
        stack
          ? `The chosen stack: ${stack.name}. ${stack.description}`
          : named.length
            ? `Named in the description: ${named.join(", ")}.`
            : "The description names no technologies; the plan starts by choosing them.",
        2000,
      ),
    },
    best_practices: practices,
    epics,
    user_stories: stories.slice(0, 60),
  };
}

/** "when a payment fails, ..." -> "A payment fails": a fact the text states, in its words. */
const WHEN =
  /\b(?:when|whenever|once|after|if)\s+((?:an?|the|their|our|my|each|every|new)\s+[\w-]+(?:\s+[\w-]+){0,3}\s+(?:is|are|was|were|gets?|has|have|fails?|succeeds?|expires?|arrives?|changes?|ends?|starts?)\b(?:\s+[\w-]+){0,2})/gi;
const READS = /^(see|view|browse|list|search|read|look at|check|track|monitor|compare|filter)\b/i;

export function composeOutlineEventModel(outline: Outline): EventModelStructure {
  const commands: EventModelStructure["commands"] = [];
  const readModels: EventModelStructure["read_models"] = [];
  const events: EventModelStructure["events"] = [];
  const lanes = new Map<string, { commands: string[]; read_models: string[]; events: string[] }>();
  const chapters: EventModelStructure["chapters"] = [];

  for (const stream of outline.workstreams) {
    const slices: string[] = [];
    for (const node of stream.nodes.flatMap(leaves)) {
      for (const r of node.covers.length === 1 ? node.covers : []) {
        for (const m of r.text.matchAll(WHEN)) {
          const name = cut(capitalise(m[1]!.trim()), 200);
          if (!events.some((e) => e.name === name))
            events.push({ name, description: `${r.id}: ${cut(r.text, 900)}` });
        }
        if (!r.actor || !r.action) continue;
        const name = cut(capitalise(r.action), 200);
        const lane = lanes.get(actorName(r.actor)) ?? { commands: [], read_models: [], events: [] };
        lanes.set(actorName(r.actor), lane);
        const list = READS.test(r.action) ? readModels : commands;
        if (list.some((c) => c.name === name)) continue;
        list.push({ name, description: `${r.id}: ${cut(r.text, 900)}` });
        (READS.test(r.action) ? lane.read_models : lane.commands).push(name);
        slices.push(cut(name, 300));
      }
    }
    if (slices.length)
      chapters.push({
        name: cut(stream.title, 200),
        description: "",
        sub_chapters: [{ name: "Stated actions", slices: slices.slice(0, 40) }],
      });
  }
  return {
    events: events.slice(0, 80),
    commands: commands.slice(0, 80),
    read_models: readModels.slice(0, 80),
    user_interactions: [],
    automations: [],
    swimlanes: [...lanes.entries()].slice(0, 20).map(([name, lane]) => ({
      name,
      description: "",
      events: [],
      commands: lane.commands.slice(0, 80),
      read_models: lane.read_models.slice(0, 80),
    })),
    chapters: chapters.slice(0, 20),
  };
}
