import type { EventModelPlan } from "../../../shared/schemas/plan";
import type { ComposeRequest } from "../planner";
import type { BriefAnalysis, Feature } from "./brief";
import { featuresOf, firstLevelItems, includesAuth, storyActor } from "./context";
import type { Family } from "./tech";
import { capitalise, clipWords, humanize, listJoin, pascal, pastTense, plural } from "./text";
import { AUTH_TOPIC, type Flow } from "./topics";

type Lane = { name: string; description: string; actor: string; flows: Flow[]; admin: boolean };

const ADMIN_TOPICS = new Set(["admin", "analytics", "notifications", "logging", "integrations"]);
const READ_VERBS = new Set([
  "see",
  "view",
  "browse",
  "read",
  "watch",
  "check",
  "find",
  "get",
  "show",
  "display",
]);

function pluralPascal(entity: string): string {
  const parts = entity.split(/(?=[A-Z])/);
  const last = parts.pop() ?? entity;
  return [...parts, plural(last)].join("");
}

function flowsOf(feature: Feature): Flow[] {
  const e = feature.entity.pascal;
  const es = pluralPascal(e);
  const fill = (s: string) => s.replaceAll("{Es}", es).replaceAll("{E}", e);
  if (feature.topic)
    return feature.topic.flows.map((f) => ({
      ...f,
      command: fill(f.command),
      event: fill(f.event),
      readModel: fill(f.readModel),
    }));
  if (feature.verbal && feature.verb && !READ_VERBS.has(feature.verb)) {
    const verb = pascal(feature.verb);
    return [
      { command: `${verb}${e}`, event: `${e}${pastTense(feature.verb)}`, readModel: `${e}List`, by: "user" },
      { command: `Update${e}`, event: `${e}Updated`, readModel: `${e}Details`, by: "user" },
    ];
  }
  return [
    { command: `Create${e}`, event: `${e}Created`, readModel: `${e}List`, by: "user" },
    { command: `Update${e}`, event: `${e}Updated`, readModel: `${e}Details`, by: "user" },
  ];
}

const CHAPTER_NAMES: Record<Family, [string, string, string]> = {
  web: ["Onboarding", "Core workflow", "Administration"],
  api: ["Onboarding", "Core workflow", "Administration"],
  mobile: ["Onboarding", "Core workflow", "Administration"],
  desktop: ["Onboarding", "Core workflow", "Administration"],
  data: ["Data preparation", "Analysis", "Reporting"],
  game: ["First launch", "Gameplay loop", "Progression and community"],
  iot: ["Commissioning", "Monitoring and control", "Alerts and maintenance"],
  automation: ["Setup", "Automated runs", "Operations"],
};

const UI_NOUN: Record<Family, string> = {
  web: "page",
  api: "API calls",
  mobile: "screen",
  desktop: "window",
  data: "dashboard",
  game: "menu",
  iot: "device controls",
  automation: "command line",
};

const slice = (f: Flow) => `${f.command} → ${f.event} → ${f.readModel}`;
const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

export function composeEventModelPlan(a: BriefAnalysis, request: ComposeRequest): EventModelPlan {
  const t = a.tech;
  const items = firstLevelItems(a, request);
  let features = items.flatMap((item) => featuresOf(item));
  if (features.length === 0) features = a.features;
  const withAuth = a.needsAuth || items.some(includesAuth);

  const lanes: Lane[] = [];
  if (withAuth)
    lanes.push({
      name: "Accounts",
      description: "Sign-up, sign-in and sessions that every other lane relies on.",
      actor: storyActor(null, t),
      flows: [...AUTH_TOPIC.flows],
      admin: false,
    });
  for (const feature of features) {
    if (lanes.length >= 20) break;
    lanes.push({
      name: clipWords(feature.label, 10).slice(0, 200),
      description: clipWords(
        `${feature.topic ? `${feature.topic.label}: ` : ""}${capitalise(feature.subject)} for ${a.title}.`,
        40,
      ).slice(0, 1000),
      actor: storyActor(feature, t),
      flows: flowsOf(feature),
      admin: feature.topic ? ADMIN_TOPICS.has(feature.topic.id) : false,
    });
  }

  const events = new Map<string, string>();
  const commands = new Map<string, string>();
  const readModels = new Map<string, string[]>();
  const interactions: { name: string; description: string }[] = [];
  const automations: { name: string; description: string }[] = [];
  for (const lane of lanes) {
    for (const f of lane.flows) {
      if (!events.has(f.event))
        events.set(f.event, `${humanize(f.event)}: recorded after ${f.command} succeeds (${lane.name}).`);
      if (!commands.has(f.command))
        commands.set(
          f.command,
          f.by === "user"
            ? `Issued by the ${lane.actor} to ${humanize(f.command).toLowerCase()}; validated before ${f.event} is recorded.`
            : `Issued automatically when ${f.trigger ?? "its trigger fires"}; records ${f.event}.`,
        );
      const sources = readModels.get(f.readModel) ?? [];
      if (!sources.includes(f.event)) sources.push(f.event);
      readModels.set(f.readModel, sources);
      if (f.by === "system")
        automations.push({
          name: clipWords(`${humanize(f.command)} when ${f.trigger ?? "triggered"}`, 20).slice(0, 200),
          description:
            `Listens for ${f.trigger ?? "its trigger"} and issues ${f.command}, which records ${f.event} and updates ${f.readModel}.`.slice(
              0,
              1000,
            ),
        });
    }
    const userFlows = lane.flows.filter((f) => f.by === "user");
    if (userFlows.length > 0)
      interactions.push({
        name: `${lane.name} ${UI_NOUN[t.family]}`.slice(0, 200),
        description:
          `The ${lane.actor} uses this to ${listJoin(userFlows.map((f) => humanize(f.command).toLowerCase()))} (${listJoin(userFlows.map((f) => f.command))}) and sees ${listJoin([...new Set(userFlows.map((f) => f.readModel))])}.`.slice(
            0,
            1000,
          ),
      });
  }

  const [onboardingName, coreName, adminName] = CHAPTER_NAMES[t.family];
  const authLane = withAuth ? lanes[0] : undefined;
  const featureLanes = withAuth ? lanes.slice(1) : lanes;
  let coreLanes = featureLanes.filter((l) => !l.admin);
  let adminLanes = featureLanes.filter((l) => l.admin);
  if (coreLanes.length === 0) {
    coreLanes = adminLanes;
    adminLanes = [];
  }
  const chapters: EventModelPlan["chapters"] = [];
  const onboardingSubs: { name: string; slices: string[] }[] = [];
  if (authLane) onboardingSubs.push({ name: "Sign-up and sign-in", slices: authLane.flows.map(slice) });
  const firstCore = coreLanes[0]?.flows[0];
  if (firstCore) onboardingSubs.push({ name: "First steps", slices: [slice(firstCore)] });
  if (onboardingSubs.length > 0)
    chapters.push({
      name: onboardingName,
      description: `How a new ${storyActor(null, t)} gets from nothing to a first useful result.`,
      sub_chapters: onboardingSubs,
    });
  chapters.push({
    name: coreName,
    description: `The day-to-day flows of ${a.title}.`,
    sub_chapters: coreLanes
      .slice(0, 20)
      .map((l) => ({ name: l.name, slices: l.flows.map(slice).slice(0, 40) })),
  });
  const systemFlows = lanes.flatMap((l) => l.flows.filter((f) => f.by === "system"));
  const adminSubs = adminLanes
    .slice(0, 19)
    .map((l) => ({ name: l.name, slices: l.flows.map(slice).slice(0, 40) }));
  if (systemFlows.length > 0)
    adminSubs.push({ name: "Automations", slices: systemFlows.map(slice).slice(0, 40) });
  if (adminSubs.length > 0)
    chapters.push({
      name: adminName,
      description: "Oversight, notifications and the work the system does on its own.",
      sub_chapters: adminSubs,
    });

  const eventList = [...events].slice(0, 80).map(([name, description]) => ({ name, description }));
  const commandList = [...commands].slice(0, 80).map(([name, description]) => ({ name, description }));
  const readModelList = [...readModels].slice(0, 80).map(([name, sources]) => ({
    name,
    description: `${humanize(name)} view built from ${listJoin(sources)}.`,
  }));
  const swimlanes = lanes.slice(0, 20).map((l) => ({
    name: l.name,
    description: l.description,
    events: [...new Set(l.flows.map((f) => f.event))],
    commands: [...new Set(l.flows.map((f) => f.command))],
    read_models: [...new Set(l.flows.map((f) => f.readModel))],
  }));

  const md: string[] = [];
  md.push(`# Event model: ${capitalise(a.title)}`, "");
  md.push(
    `This model describes ${a.title} (${t.typeLabel.toLowerCase()}, ${t.stack.name}) as ${swimlanes.length} swimlane${swimlanes.length === 1 ? "" : "s"}. ` +
      "Commands express intent, events record facts in the past tense, and read models are the views built from those events.",
    "",
  );
  md.push("## Swimlanes", "");
  for (const lane of lanes.slice(0, 20)) {
    md.push(`### ${lane.name}`, "", lane.description, "");
    md.push("| Command | Event | Read model | Triggered by |", "|---|---|---|---|");
    for (const f of lane.flows)
      md.push(
        `| ${cell(f.command)} | ${cell(f.event)} | ${cell(f.readModel)} | ${cell(f.by === "user" ? lane.actor : (f.trigger ?? "system"))} |`,
      );
    md.push("");
  }
  md.push("## Events", "", ...eventList.map((e) => `- **${e.name}**: ${e.description}`), "");
  md.push("## Commands", "", ...commandList.map((c) => `- **${c.name}**: ${c.description}`), "");
  md.push("## Read models", "", ...readModelList.map((r) => `- **${r.name}**: ${r.description}`), "");
  if (interactions.length > 0)
    md.push("## User interactions", "", ...interactions.map((i) => `- **${i.name}**: ${i.description}`), "");
  if (automations.length > 0)
    md.push("## Automations", "", ...automations.map((x) => `- **${x.name}**: ${x.description}`), "");
  md.push("## Chapters", "");
  for (const chapter of chapters) {
    md.push(`### ${chapter.name}`, "", chapter.description, "");
    for (const sub of chapter.sub_chapters) {
      md.push(`#### ${sub.name}`, "", ...sub.slices.map((s) => `- ${s}`), "");
    }
  }

  return {
    events: eventList,
    commands: commandList,
    read_models: readModelList,
    user_interactions: interactions.slice(0, 80),
    automations: automations.slice(0, 80),
    swimlanes,
    chapters: chapters.slice(0, 20),
    event_model_markdown: md.join("\n").slice(0, 100_000),
  };
}
