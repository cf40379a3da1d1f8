import { describe, expect, it } from "vitest";
import { APPLICATION_TYPES, findApplicationType, findStack } from "../../shared/catalogue";
import {
  complexityAssessment,
  eventModelPlan,
  type PlannedSubtask,
  projectContext,
  subtaskPlan,
} from "../../shared/schemas/plan";
import { createOfflinePlanner } from "./offline-planner";
import type { ComposeRequest, ProjectBrief, SplitRequest } from "./planner";

const planner = createOfflinePlanner();

function briefFor(
  description: string,
  typeId: string | null,
  stackId: string | null,
  additionalRequirements: string | null = null,
): ProjectBrief {
  const type = typeId ? findApplicationType(typeId) : undefined;
  const stack = typeId && stackId ? findStack(typeId, stackId) : undefined;
  return {
    description,
    applicationType: type ? { id: type.id, label: type.label, description: type.description } : null,
    stack: stack ?? null,
    additionalRequirements,
    repositorySummary: null,
  };
}

const MARKETPLACE = briefFor(
  "A marketplace web app where sellers list handmade goods and buyers search listings, pay with Stripe and chat with sellers in real time. Buyers leave reviews and ratings, and admins moderate listings from a dashboard. Users sign up with email.",
  "web-application",
  "react-node-postgres",
);
const HABITS = briefFor(
  "A Flutter habit tracker where users create daily habits, get reminder push notifications, see streaks and charts of their progress, sync across devices with offline support and share achievements with friends.",
  "mobile-application",
  "flutter-firebase",
);
const GREENHOUSE = briefFor(
  "An Arduino greenhouse monitor that reads temperature, humidity and soil moisture sensors, controls fans and a water pump, shows readings on an LCD, sends alerts over Wi-Fi and logs data to an SD card.",
  "iot",
  "arduino-cpp",
);

type Node = {
  description: string;
  score: number;
  storyPoints: number;
  details: string;
  depth: number;
  atomic: boolean;
  children: Node[];
};

/** The pipeline's rule (atomicity.ts): the root is always split; below it, atomic at max depth or score <= threshold × 10. */
async function decompose(brief: ProjectBrief, opts = { maxDepth: 4, maxSubtasks: 7, threshold: 0.7 }) {
  const assessed = await planner.assessComplexity(brief);
  const root: Node = {
    description: brief.description,
    score: assessed.value.complexity_score,
    storyPoints: assessed.value.story_points,
    details: assessed.value.rationale,
    depth: 0,
    atomic: false,
    children: [],
  };
  const all: Node[] = [root];
  const splits: { request: SplitRequest; value: PlannedSubtask[] }[] = [];
  let calls = 1;
  let elapsed = 0;
  async function visit(node: Node, ancestors: string[]): Promise<void> {
    node.atomic = node.depth > 0 && (node.depth >= opts.maxDepth || node.score <= opts.threshold * 10);
    if (node.atomic) return;
    const request: SplitRequest = {
      brief,
      task: {
        description: node.description,
        complexity_score: node.score,
        implementation_details: node.details,
      },
      ancestors,
      depth: node.depth,
      maxDepth: opts.maxDepth,
      maxSubtasks: opts.maxSubtasks,
    };
    const started = performance.now();
    const planned = await planner.splitTask(request);
    elapsed += performance.now() - started;
    calls += 1;
    expect(planned.usage).toEqual({ calls: 1, promptTokens: 0, completionTokens: 0 });
    splits.push({ request, value: planned.value });
    for (const p of planned.value) {
      const child: Node = {
        description: p.description,
        score: p.complexity_score,
        storyPoints: p.story_points,
        details: p.implementation_details,
        depth: node.depth + 1,
        atomic: false,
        children: [],
      };
      node.children.push(child);
      all.push(child);
      if (all.length > 500) throw new Error("decomposition does not terminate");
      await visit(child, [...ancestors, node.description]);
    }
  }
  await visit(root, []);
  return { root, all, splits, calls, elapsed };
}

function flatten(root: Node): ComposeRequest["tasks"] {
  const out: ComposeRequest["tasks"] = [];
  const walk = (n: Node) => {
    out.push({
      description: n.description,
      depth: n.depth,
      complexity_score: n.score,
      story_points: n.storyPoints,
      is_atomic: n.atomic,
    });
    for (const c of n.children) walk(c);
  };
  walk(root);
  return out;
}

const expectedPoints = (score: number) =>
  score <= 2 ? 1 : score === 3 ? 2 : score === 4 ? 3 : score <= 6 ? 5 : score <= 8 ? 8 : 13;

const wordCount = (text: string) => text.trim().split(/\s+/).length;

describe("offline planner", () => {
  it("is named offline, has no model and reports zero-token usage", async () => {
    expect(planner.name).toBe("offline");
    expect(planner.model).toBeNull();
    const assessed = await planner.assessComplexity(MARKETPLACE);
    expect(assessed.usage).toEqual({ calls: 1, promptTokens: 0, completionTokens: 0 });
  });

  it("scores complexity from scope, integrations and type", async () => {
    const todo = (await planner.assessComplexity(briefFor("a todo list", null, null))).value;
    const marketplace = (await planner.assessComplexity(MARKETPLACE)).value;
    for (const v of [todo, marketplace]) expect(complexityAssessment.parse(v)).toEqual(v);
    expect(todo.complexity_score).toBeGreaterThanOrEqual(3);
    expect(todo.complexity_score).toBeLessThanOrEqual(5);
    expect(marketplace.complexity_score).toBeGreaterThanOrEqual(8);
    expect(marketplace.story_points).toBe(expectedPoints(marketplace.complexity_score));
    expect(todo.story_points).toBe(expectedPoints(todo.complexity_score));
    expect(marketplace.rationale).toMatch(/payments/i);
    expect(marketplace.rationale).toMatch(/real-time/i);
    expect(marketplace.rationale.split(/(?<=\.)\s/).length).toBeLessThanOrEqual(3);
  });

  it("is deterministic", async () => {
    const first = await decompose(MARKETPLACE);
    const second = await decompose(MARKETPLACE);
    expect(JSON.stringify(second.root)).toBe(JSON.stringify(first.root));
    const request: ComposeRequest = { brief: MARKETPLACE, tasks: flatten(first.root) };
    expect(await planner.composeContext(request)).toEqual(await planner.composeContext(request));
    expect(await planner.composeEventModel(request)).toEqual(await planner.composeEventModel(request));
  });

  it("honours maxSubtasks from 2 to 10 at every level", async () => {
    for (const brief of [MARKETPLACE, HABITS, GREENHOUSE, briefFor("a todo list", null, null)]) {
      const score = (await planner.assessComplexity(brief)).value.complexity_score;
      for (let max = 2; max <= 10; max++) {
        const root = await planner.splitTask({
          brief,
          task: { description: brief.description, complexity_score: score, implementation_details: null },
          ancestors: [],
          depth: 0,
          maxDepth: 4,
          maxSubtasks: max,
        });
        expect(subtaskPlan.parse({ subtasks: root.value }).subtasks).toHaveLength(root.value.length);
        expect(root.value.length).toBeGreaterThanOrEqual(2);
        expect(root.value.length).toBeLessThanOrEqual(max);
        for (const child of root.value) {
          const below = await planner.splitTask({
            brief,
            task: { description: child.description, complexity_score: 9, implementation_details: null },
            ancestors: [brief.description],
            depth: 1,
            maxDepth: 4,
            maxSubtasks: max,
          });
          expect(below.value.length).toBeGreaterThanOrEqual(2);
          expect(below.value.length).toBeLessThanOrEqual(max);
        }
      }
    }
  });

  for (const [name, brief, technologies, features] of [
    [
      "a web marketplace with payments",
      MARKETPLACE,
      ["React", "PostgreSQL", "Stripe"],
      [/search/i, /pay/i, /chat/i, /review/i],
    ],
    [
      "a Flutter habit tracker",
      HABITS,
      ["Flutter", "Firestore"],
      [/habits/i, /notifications/i, /streaks/i, /sync/i],
    ],
    [
      "an Arduino greenhouse monitor",
      GREENHOUSE,
      ["Arduino", "EEPROM"],
      [/sensors/i, /pump/i, /LCD/i, /SD card/i],
    ],
  ] as const) {
    it(`decomposes ${name} into a sensible, terminating tree`, async () => {
      const { root, all, splits, calls, elapsed } = await decompose(brief);
      expect(all.length).toBeGreaterThanOrEqual(10);
      expect(all.length).toBeLessThanOrEqual(80);
      expect(root.score).toBeGreaterThanOrEqual(8);
      expect(elapsed / calls).toBeLessThan(5);

      for (const { request, value } of splits) {
        expect(subtaskPlan.parse({ subtasks: value }).subtasks).toHaveLength(value.length);
        expect(value.length).toBeGreaterThanOrEqual(2);
        expect(value.length).toBeLessThanOrEqual(request.maxSubtasks);
        const parent = request.task.complexity_score!;
        for (const child of value) {
          expect(child.complexity_score).toBeLessThanOrEqual(parent);
          if (parent > 1) expect(child.complexity_score).toBeLessThan(parent);
          expect(child.complexity_score).toBeGreaterThanOrEqual(Math.max(1, parent - 3));
          expect(child.story_points).toBe(expectedPoints(child.complexity_score));
        }
        expect(new Set(value.map((v) => v.description)).size).toBe(value.length);
      }
      for (const node of all.slice(1)) {
        expect(wordCount(node.description)).toBeGreaterThanOrEqual(5);
        expect(wordCount(node.description)).toBeLessThanOrEqual(20);
        expect(node.description).not.toMatch(/subtask\s*\d/i);
        expect(node.description).toMatch(/^[A-Z]/);
        expect(node.details.length).toBeGreaterThan(20);
      }
      // Deeper splits use small scores; most of the tree stops at the default threshold.
      for (const node of all.filter((n) => n.depth >= 2)) expect(node.score).toBeLessThanOrEqual(7);

      const text = all.map((n) => `${n.description} ${n.details}`).join("\n");
      for (const tech of technologies) expect(text).toContain(tech);

      const firstLevel = root.children.map((c) => c.description);
      for (const feature of features) expect(firstLevel.some((d) => feature.test(d))).toBe(true);
    });
  }

  it("keeps features first and merges boilerplate when the plan is too long", async () => {
    const split = async (brief: ProjectBrief, maxSubtasks: number) => {
      const score = (await planner.assessComplexity(brief)).value.complexity_score;
      const planned = await planner.splitTask({
        brief,
        task: { description: brief.description, complexity_score: score, implementation_details: null },
        ancestors: [],
        depth: 0,
        maxDepth: 4,
        maxSubtasks,
      });
      return planned.value.map((s) => s.description);
    };
    const todo = briefFor(
      "A todo app with tags, due dates and reminders. Users can share lists with family members.",
      "web-application",
      "react-node-postgres",
    );
    const full = await split(todo, 10);
    expect(full[0]).toMatch(
      /^Set up the React \+ Express project with TypeScript, linting and GitHub Actions CI/,
    );
    expect(full[1]).toMatch(/^Design the PostgreSQL schema for users, todos/);
    expect(full[2]).toMatch(/^Add authentication/);
    expect(full.at(-2)).toMatch(/^Write automated tests with Vitest and Playwright/);
    expect(full.at(-1)).toMatch(/^Deploy to /);
    for (const feature of [/manage todos/, /tags/i, /due dates/, /reminders/, /share lists/])
      expect(full.some((d) => feature.test(d))).toBe(true);

    const merged = await split(MARKETPLACE, 10);
    expect(merged).toHaveLength(8);
    expect(merged[0]).toMatch(
      /^Set up the React \+ Express project and PostgreSQL schema with authentication/,
    );
    expect(merged.at(-1)).toMatch(/^Test with Vitest and Playwright, then deploy/);

    const narrow = await split(MARKETPLACE, 4);
    expect(narrow).toHaveLength(4);
    expect(narrow[0]).toMatch(/^Set up, test and ship/);
    expect(narrow.filter((d) => /list handmade goods|search listings/i.test(d))).toHaveLength(2);
    expect(narrow[3]).toMatch(/remaining features/i);
  });

  it("plans the setup of a one-line project around the chosen stack", async () => {
    const brief = briefFor("a todo list", "web-application", "react-node-postgres");
    const value = (
      await planner.splitTask({
        brief,
        task: { description: "a todo list", complexity_score: 4, implementation_details: null },
        ancestors: [],
        depth: 0,
        maxDepth: 4,
        maxSubtasks: 7,
      })
    ).value.map((s) => s.description);
    expect(value[0]).toMatch(/^Set up the React \+ Express project with TypeScript/);
    expect(value.some((d) => /todos/.test(d))).toBe(true);
    expect(value.some((d) => /^Deploy/.test(d))).toBe(true);
  });

  it("splits nodes it did not write (edited or added by hand)", async () => {
    const value = (
      await planner.splitTask({
        brief: MARKETPLACE,
        task: {
          description: "Add a gift card feature with balance tracking",
          complexity_score: 8,
          implementation_details: null,
        },
        ancestors: [MARKETPLACE.description],
        depth: 1,
        maxDepth: 4,
        maxSubtasks: 5,
      })
    ).value;
    expect(subtaskPlan.parse({ subtasks: value }).subtasks.length).toBeGreaterThanOrEqual(2);
    expect(value.length).toBeLessThanOrEqual(5);
    expect(value.every((v) => v.complexity_score < 8)).toBe(true);
    expect(value.map((v) => v.description).join(" ")).toMatch(/gift card/i);
  });

  it("composes epics, user stories and best practices that match the plan", async () => {
    for (const brief of [MARKETPLACE, HABITS, GREENHOUSE]) {
      const { root } = await decompose(brief);
      const request: ComposeRequest = { brief, tasks: flatten(root) };
      const composed = await planner.composeContext(request);
      expect(composed.usage).toEqual({ calls: 1, promptTokens: 0, completionTokens: 0 });
      const context = projectContext.parse(composed.value);

      expect(context.tech_stack.frontend).toBe(brief.stack!.frontend_framework);
      expect(context.tech_stack.database).toBe(brief.stack!.database);
      expect(context.tech_stack.deployment.length).toBeGreaterThan(0);
      expect(context.best_practices.length).toBeGreaterThanOrEqual(5);
      expect(context.best_practices.length).toBeLessThanOrEqual(10);

      const firstLevel = root.children.map((c) => c.description);
      expect(context.epics.map((e) => e.id)).toEqual(firstLevel.map((_, i) => `E${i + 1}`));
      expect(context.epics.map((e) => e.description)).toEqual(firstLevel);
      expect(context.epics[0]!.priority).toBe(1);

      const epicIds = new Set(context.epics.map((e) => e.id));
      expect(new Set(context.user_stories.map((s) => s.id)).size).toBe(context.user_stories.length);
      expect(context.user_stories.length).toBeGreaterThanOrEqual(3);
      for (const story of context.user_stories) {
        expect(story.id).toMatch(/^US\d+$/);
        expect(epicIds.has(story.epic_id!)).toBe(true);
        expect(story.acceptance_criteria.length).toBeGreaterThanOrEqual(2);
        expect(story.acceptance_criteria.length).toBeLessThanOrEqual(5);
      }
      // Every feature epic carries at least one story.
      const withStories = new Set(context.user_stories.map((s) => s.epic_id));
      const featureEpics = context.epics.filter((e) =>
        /^(Let|Implement|Read|Control|Show|Send|Log)\b/.test(e.description),
      );
      expect(featureEpics.length).toBeGreaterThanOrEqual(3);
      for (const epic of featureEpics) expect(withStories.has(epic.id)).toBe(true);
    }
    const habits = projectContext.parse(
      (await planner.composeContext({ brief: HABITS, tasks: flatten((await decompose(HABITS)).root) })).value,
    );
    expect(habits.user_stories.some((s) => s.actor === "user")).toBe(true);
    const market = projectContext.parse(
      (
        await planner.composeContext({
          brief: MARKETPLACE,
          tasks: flatten((await decompose(MARKETPLACE)).root),
        })
      ).value,
    );
    expect(market.user_stories.map((s) => s.actor)).toEqual(
      expect.arrayContaining(["seller", "buyer", "admin"]),
    );
  });

  it("composes an event model whose markdown describes every event", async () => {
    for (const brief of [MARKETPLACE, HABITS, GREENHOUSE]) {
      const { root } = await decompose(brief);
      const composed = await planner.composeEventModel({ brief, tasks: flatten(root) });
      const model = eventModelPlan.parse(composed.value);
      const eventNames = new Set(model.events.map((e) => e.name));
      const commandNames = new Set(model.commands.map((c) => c.name));
      const readModelNames = new Set(model.read_models.map((r) => r.name));
      expect(eventNames.size).toBe(model.events.length);
      for (const name of [...eventNames, ...commandNames, ...readModelNames])
        expect(name).toMatch(/^[A-Z][A-Za-z0-9]+$/);
      // Events are facts: one of their words is in the past tense ("OrderPlaced", "UserSignedIn", "MessageSent").
      for (const name of eventNames) {
        const parts = name.split(/(?=[A-Z])/);
        const pastTense = parts.some((w) =>
          /(ed|en|wn|Sent|Read|Paid|Left|Made|Built|Set|Run|Won|Lost|Kept|Sold|Bought|Found)$/.test(w),
        );
        expect(pastTense, name).toBe(true);
      }
      for (const lane of model.swimlanes) {
        for (const e of lane.events) expect(eventNames.has(e)).toBe(true);
        for (const c of lane.commands) expect(commandNames.has(c)).toBe(true);
        for (const r of lane.read_models) expect(readModelNames.has(r)).toBe(true);
      }
      expect(model.swimlanes.length).toBeGreaterThanOrEqual(4);
      expect(model.chapters.length).toBeGreaterThanOrEqual(2);
      for (const chapter of model.chapters)
        for (const sub of chapter.sub_chapters)
          for (const slice of sub.slices) expect(slice).toMatch(/^\w+ → \w+ → \w+$/);
      expect(model.event_model_markdown).toMatch(/^# Event model/);
      for (const name of eventNames) expect(model.event_model_markdown).toContain(name);
      for (const lane of model.swimlanes) expect(model.event_model_markdown).toContain(`### ${lane.name}`);
    }
    const market = eventModelPlan.parse(
      (
        await planner.composeEventModel({
          brief: MARKETPLACE,
          tasks: flatten((await decompose(MARKETPLACE)).root),
        })
      ).value,
    );
    expect(market.events.map((e) => e.name)).toEqual(
      expect.arrayContaining(["PaymentCaptured", "MessageSent"]),
    );
    expect(market.commands.map((c) => c.name)).toEqual(
      expect.arrayContaining(["SendMessage", "RegisterAccount"]),
    );
    expect(market.automations.length).toBeGreaterThan(0);
  });

  it("produces valid output for every application type and stack in the catalogue", async () => {
    const descriptions = [
      "A tool where users create projects, invite teammates, upload files and get weekly e-mail reports.",
      "Track inventory with barcode scanning, low-stock alerts and a dashboard.",
    ];
    for (const type of APPLICATION_TYPES) {
      for (const stack of type.stacks) {
        for (const description of descriptions) {
          const brief = briefFor(description, type.id, stack.id);
          const assessed = complexityAssessment.parse((await planner.assessComplexity(brief)).value);
          const first = (
            await planner.splitTask({
              brief,
              task: {
                description,
                complexity_score: assessed.complexity_score,
                implementation_details: null,
              },
              ancestors: [],
              depth: 0,
              maxDepth: 4,
              maxSubtasks: 7,
            })
          ).value;
          subtaskPlan.parse({ subtasks: first });
          for (const item of first) {
            expect(wordCount(item.description)).toBeGreaterThanOrEqual(5);
            expect(wordCount(item.description)).toBeLessThanOrEqual(20);
            const second = (
              await planner.splitTask({
                brief,
                task: { description: item.description, complexity_score: 8, implementation_details: null },
                ancestors: [description],
                depth: 1,
                maxDepth: 4,
                maxSubtasks: 7,
              })
            ).value;
            subtaskPlan.parse({ subtasks: second });
            for (const s of second) {
              expect(wordCount(s.description)).toBeGreaterThanOrEqual(5);
              expect(wordCount(s.description)).toBeLessThanOrEqual(20);
              expect(s.description).not.toMatch(/\bthe the\b|\bundefined\b|\bnull\b/);
            }
          }
          const tasks: ComposeRequest["tasks"] = [
            {
              description,
              depth: 0,
              complexity_score: assessed.complexity_score,
              story_points: 8,
              is_atomic: false,
            },
            ...first.map((f) => ({
              description: f.description,
              depth: 1,
              complexity_score: f.complexity_score,
              story_points: f.story_points,
              is_atomic: true,
            })),
          ];
          projectContext.parse((await planner.composeContext({ brief, tasks })).value);
          eventModelPlan.parse((await planner.composeEventModel({ brief, tasks })).value);
        }
      }
    }
  });

  it("infers a type and stack when none is chosen", async () => {
    const brief = briefFor("A Flutter app for booking yoga classes with reminders", null, null);
    const first = (
      await planner.splitTask({
        brief,
        task: { description: brief.description, complexity_score: 7, implementation_details: null },
        ancestors: [],
        depth: 0,
        maxDepth: 4,
        maxSubtasks: 7,
      })
    ).value;
    expect(first.map((f) => f.description).join(" ")).toContain("Flutter");
    expect(first.map((f) => f.description).join(" ")).toMatch(/booking|reminders/i);
  });
});
