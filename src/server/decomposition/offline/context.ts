import type { ProjectContext } from "../../../shared/schemas/plan";
import type { ComposeRequest } from "../planner";
import type { BriefAnalysis, Feature } from "./brief";
import { findItem, planItems, type Spec, storyPointsFor } from "./plan";
import type { Family, Tech } from "./tech";
import { capitalise, clipWords, lowerFirst, singular } from "./text";
import { AUTH_TOPIC, isUserFacing, type Topic } from "./topics";

type Story = ProjectContext["user_stories"][number];
type Epic = ProjectContext["epics"][number];

/** The first-level items of the finished tree, recognised as the planner's own where possible. */
export function firstLevelItems(a: BriefAnalysis, request: ComposeRequest): Spec[] {
  const depths = request.tasks.map((t) => t.depth);
  const rootDepth = depths.length > 0 ? Math.min(...depths) : 0;
  const first = request.tasks.filter((t) => t.depth === rootDepth + 1);
  if (first.length === 0) return planItems(a, 7);
  return first.slice(0, 20).map((t) => findItem(a, t.description));
}

export function featuresOf(item: Spec): Feature[] {
  if (item.features) return item.features;
  if (item.feature) return [item.feature];
  return [];
}

export function includesAuth(item: Spec): boolean {
  return item.itemKind === "auth" || (item.parts?.includes("auth") ?? false);
}

const FAMILY_ACTOR: Record<Family, string> = {
  web: "user",
  mobile: "user",
  api: "API client developer",
  desktop: "user",
  data: "data analyst",
  game: "player",
  iot: "operator",
  automation: "operations engineer",
};

export function storyActor(feature: Feature | null, t: Tech): string {
  if (feature?.topic?.actor) return feature.topic.actor;
  if (feature?.actor) return singular(feature.actor);
  if (t.typeId === "ecommerce") return "customer";
  if (t.typeId === "cms") return "editor";
  return FAMILY_ACTOR[t.family];
}

const MACHINE: Partial<Record<Family, string>> = {
  iot: "device",
  automation: "automation",
  data: "pipeline",
};

function storyAction(feature: Feature, t: Tech): string {
  const phrase = feature.phrase.replace(/\btheir\b/gi, "my").replace(/\bthem\b/gi, "them");
  if (feature.verbal) {
    const machine = MACHINE[t.family];
    return machine && !isUserFacing(t) ? `have the ${machine} ${phrase}` : phrase;
  }
  const verb = feature.topic?.nounVerb ?? "manage";
  return `${verb} ${phrase.replace(/^(a|an)\s+/i, "the ")}`;
}

function storyBenefit(feature: Feature, t: Tech): string {
  if (feature.topic) return feature.topic.benefit;
  if (!isUserFacing(t)) return "I do not have to do it by hand and can trust the result";
  return feature.verbal ? `I can ${feature.phrase} quickly and reliably` : "I get this without extra effort";
}

function genericCriteria(feature: Feature, action: string, a: BriefAnalysis): string[] {
  const t = a.tech;
  switch (t.family) {
    case "iot":
      return [
        `Given the device is running, when the control loop runs, then it can ${feature.verbal ? feature.phrase : `handle ${feature.phrase}`} without blocking other tasks`,
        "Given a power cycle, when the device restarts, then it resumes within a minute using the saved settings",
      ];
    case "data":
      return [
        `Given the latest input data, when the pipeline runs, then ${lowerFirst(feature.label)} is produced reproducibly`,
        "Given malformed input rows, when the pipeline runs, then they are reported and excluded rather than silently used",
      ];
    case "automation":
      return [
        `Given valid configuration, when the automation runs, then it can ${feature.verbal ? feature.phrase : `handle ${feature.phrase}`} and logs the outcome`,
        "Given a transient failure, when a step fails, then it is retried and the run reports the final status",
      ];
    default:
      return [
        `Given I am ${a.needsAuth ? "signed in" : "using the app"}, when I ${action}, then the result is saved and shown immediately`,
        "Given invalid or incomplete input, when I submit it, then I see a clear message and nothing is saved",
      ];
  }
}

function criteriaFor(topic: Topic | null, feature: Feature, action: string, a: BriefAnalysis): string[] {
  const specific = topic ? [...topic.criteria].slice(0, 4) : [];
  const generic = genericCriteria(feature, action, a);
  const all = specific.length >= 2 ? specific : [...specific, ...generic];
  return all.slice(0, 5).map((c) => clipWords(c, 60).slice(0, 500));
}

function priorityFor(index: number): Story["priority"] {
  if (index < 3) return "must_have";
  if (index < 6) return "should_have";
  return "could_have";
}

function bestPractices(a: BriefAnalysis, features: Feature[]): string[] {
  const t = a.tech;
  const byFamily: Record<Family, string[]> = {
    web: [
      "Validate every input on the server, even when the UI validates it too.",
      "Keep business logic in services that the API and the tests call directly; keep route handlers thin.",
      "Watch Core Web Vitals and keep the main bundle small with route-level code splitting.",
    ],
    api: [
      "Version the API and never break existing clients; deprecate with headers and a timeline.",
      "Use consistent error bodies (RFC 9457 problem details) and cursor pagination.",
      "Instrument every endpoint with structured logs, metrics and traces (OpenTelemetry).",
    ],
    mobile: [
      "Design for flaky networks: cache reads, queue writes and show clear offline states.",
      "Keep secrets out of the app bundle; anything shipped in the binary is public.",
      "Test on small and large screens on both platforms, with dynamic type and dark mode.",
    ],
    desktop: [
      "Sign and notarise every build so users do not see security warnings.",
      "Store user data in the platform's app-data folder and back it up before migrations.",
      "Keep the UI responsive: run I/O and heavy work off the UI thread.",
    ],
    data: [
      "Keep notebooks for exploration and move reusable code into a tested package.",
      "Version data, code and parameters together so every result can be reproduced.",
      "Validate inputs and outputs with explicit data quality checks that fail loudly.",
    ],
    game: [
      "Find the fun with a graybox prototype before producing final art.",
      "Keep gameplay values in data assets so they can be tuned without code changes.",
      "Profile on the weakest target hardware early and keep a frame-time budget.",
    ],
    iot: [
      "Never block the main loop: use timers or RTOS tasks instead of long delays.",
      "Default every actuator to a safe state on boot, reset and fault.",
      "Keep pins, thresholds and intervals in one configuration module and log over serial.",
    ],
    automation: [
      "Make every run idempotent so reruns never duplicate work.",
      "Log structured, per-step output with a run id and alert on failures.",
      "Prefer official APIs over UI automation; when scraping, respect robots.txt and rate limits.",
    ],
  };
  const stack: string[] = [];
  if (t.database)
    stack.push(
      `Manage the ${t.database} schema only through ${t.dataLib} migrations kept in version control.`,
    );
  stack.push(`Run ${t.lint} and ${t.test} in ${t.ci} on every push and block merges on failure.`);
  stack.push(
    `Follow the ${t.stack.name} conventions for project structure so new contributors find their way.`,
  );
  const topics = new Set<Topic>();
  if (a.needsAuth) topics.add(AUTH_TOPIC);
  for (const f of features) if (f.topic?.practice) topics.add(f.topic);
  const fromTopics = [...topics].flatMap((topic) => (topic.practice ? [topic.practice(t)] : []));
  const general = [
    "Keep secrets in environment variables or a secrets manager, never in Git.",
    "Ship in small vertical slices and keep the main branch always releasable.",
  ];
  const all = [...byFamily[t.family], ...fromTopics.slice(0, 3), ...stack, ...general];
  return [...new Set(all)].slice(0, 10).map((p) => p.slice(0, 500));
}

export function composeProjectContext(a: BriefAnalysis, request: ComposeRequest): ProjectContext {
  const t = a.tech;
  const items = firstLevelItems(a, request);
  const epics: Epic[] = items.map((item, i) => ({
    id: `E${i + 1}`,
    title: clipWords(item.label ?? item.description.split(":")[0]!, 12).slice(0, 200),
    description: item.description.slice(0, 2000),
    priority: Math.max(1, Math.min(5, item.epicPriority ?? 3)),
  }));

  const stories: Story[] = [];
  let featureIndex = 0;
  items.forEach((item, i) => {
    const epicId = `E${i + 1}`;
    if (includesAuth(item)) {
      const actor = storyActor(null, t);
      stories.push({
        id: "",
        epic_id: epicId,
        actor,
        action: "sign up, sign in and sign out securely",
        benefit: AUTH_TOPIC.benefit,
        acceptance_criteria: [...AUTH_TOPIC.criteria],
        story_points: 3,
        priority: "must_have",
      });
    }
    for (const feature of featuresOf(item)) {
      const action = storyAction(feature, t);
      stories.push({
        id: "",
        epic_id: epicId,
        actor: storyActor(feature, t).slice(0, 200),
        action: action.slice(0, 1000),
        benefit: storyBenefit(feature, t).slice(0, 1000),
        acceptance_criteria: criteriaFor(feature.topic, feature, action, a),
        story_points: storyPointsFor(Math.max(1, feature.weight - 3)),
        priority: priorityFor(featureIndex),
      });
      featureIndex += 1;
    }
  });
  if (stories.length === 0) {
    const feature = a.features[0]!;
    const action = storyAction(feature, t);
    stories.push({
      id: "",
      epic_id: epics[0]?.id ?? null,
      actor: storyActor(feature, t),
      action,
      benefit: storyBenefit(feature, t),
      acceptance_criteria: criteriaFor(feature.topic, feature, action, a),
      story_points: storyPointsFor(Math.max(1, feature.weight - 3)),
      priority: "must_have",
    });
  }
  const userStories = stories.slice(0, 60).map((s, i) => ({ ...s, id: `US${i + 1}` }));

  const frontend = t.stack.frontend_framework;
  return {
    tech_stack: {
      frontend: frontend.slice(0, 300),
      backend: `${t.stack.backend_language}${t.server ? ` with ${t.server}` : ""}`.slice(0, 300),
      database: t.stack.database.slice(0, 300),
      deployment: capitalise(t.deploy).slice(0, 300),
      description:
        `${t.stack.name} for a ${t.typeLabel.toLowerCase()} (${a.title}). ${t.stack.description} Testing with ${t.test}, linting with ${t.lint}, CI on ${t.ci}.`.slice(
          0,
          2000,
        ),
    },
    best_practices: bestPractices(
      a,
      items.flatMap((item) => featuresOf(item)),
    ),
    epics:
      epics.length > 0 ? epics : [{ id: "E1", title: capitalise(a.title), description: "", priority: 1 }],
    user_stories: userStories,
  };
}
