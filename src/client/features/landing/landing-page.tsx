import { useEffect, useRef } from "react";
import { Link } from "wouter";
import { usePageMeta } from "../../components/use-page-meta";
import { complexityBadgeClass } from "../../lib/complexity-badge";
import { usePublicConfig } from "../../lib/public-config";
import { PRODUCT_DESCRIPTION, PRODUCT_NAME } from "../../lib/site";
// `no-inline` keeps the logo a real file with a stable URL, which structured data needs.
import logoUrl from "./atomize-logo.svg?no-inline";

const DESCRIPTION =
  "Describe a software project in plain language and Atomize breaks it into atomic subtasks with complexity scores, story points, epics, user stories and an event model, ready to export to JIRA, Trello or GitHub Issues.";

/** Paths of 24x24 outline icons (stroke-drawn). */
const ICONS = {
  bolt: "M13 2 4 14h7l-1 8 9-12h-7l1-8Z",
  gauge: "M12 14l4-4M3.5 17a9 9 0 1 1 17 0M12 14a1 1 0 1 0 0 .01",
  layers: "m12 3 9 5-9 5-9-5 9-5ZM3 13l9 5 9-5M3 17.5l9 5 9-5",
  flow: "M4 5h6v5H4zM14 14h6v5h-6zM7 10v4a2 2 0 0 0 2 2h5M17 14v-3a2 2 0 0 0-2-2h-5",
  check: "M9 12l2 2 4-4M12 3a9 9 0 1 1 0 18 9 9 0 0 1 0-18Z",
  share: "M4 12v7a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-7M16 6l-4-4-4 4M12 2v13",
  cpu: "M9 9h6v6H9zM6 4h12a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2ZM9 1v3M15 1v3M9 20v3M15 20v3M1 9h3M1 15h3M20 9h3M20 15h3",
  stack: "M4 6h16M4 12h16M4 18h10",
} as const;

function Icon({ name }: { name: keyof typeof ICONS }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className="size-6"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={ICONS[name]} />
    </svg>
  );
}

const STEPS = [
  {
    title: "Describe",
    text: "Tell Atomize what you want to build in plain language. Pick an application type and tech stack, and add a GitHub repository if you have one.",
  },
  {
    title: "Decompose",
    text: "Atomize scores complexity and splits the work level by level until every subtask is atomic: small enough to pick up, finish and estimate with confidence. Without an AI model you get an outline of your own description; an AI model you connect (or one your instance provides) writes a fuller plan.",
  },
  {
    title: "Deliver",
    text: "Review and refine the tree, then export it to JIRA, Trello or GitHub Issues, or download it as JSON, Markdown or CSV, and start building.",
  },
];

// The counts mirror src/shared/catalogue.ts (kept literal so the landing chunk stays small).
const FEATURES: { icon: keyof typeof ICONS; title: string; text: string }[] = [
  {
    icon: "bolt",
    title: "Live decomposition",
    text: "Watch the plan take shape stage by stage, from context analysis to final composition, with progress streamed to your browser as it happens.",
  },
  {
    icon: "gauge",
    title: "Complexity and story points",
    text: "Every subtask gets a complexity score out of 10 and a story-point estimate, so you can size the work before you commit to it.",
  },
  {
    icon: "layers",
    title: "Epics and user stories",
    text: "The work is grouped into prioritized epics, with user stories that name the actor, the action, the benefit and the acceptance criteria.",
  },
  {
    icon: "flow",
    title: "Event modeling",
    text: "Get an event model of your system (swimlanes, chapters, events, commands and read models) that you can refine as Markdown.",
  },
  {
    icon: "check",
    title: "Review before you commit",
    text: "Every plan is a draft, whoever wrote it. Edit descriptions, add or remove subtasks and restart a decomposition before anything reaches your tracker.",
  },
  {
    icon: "share",
    title: "Exports to JIRA, Trello and GitHub",
    text: "Create JIRA epics, stories and sub-tasks with Confluence pages, Trello boards with cards and checklists, or GitHub Issues in one step.",
  },
  {
    icon: "cpu",
    title: "An outline, or your own model",
    text: "With no AI model, Atomize turns your description into an outline: every requirement you state, nothing invented. Connect any OpenAI-compatible model, a local Ollama included, and it writes a fuller plan.",
  },
  {
    icon: "stack",
    title: "Tech-stack aware",
    text: "Choose from 10 application types and 67 tech stacks, from React with Node.js to Flutter, Unity or Arduino, and get tasks that fit.",
  },
];

/** A small, static example of what a decomposition looks like (not live data). */
const EXAMPLE = {
  root: "Build a recipe-sharing web app",
  items: [
    { depth: 1, title: "User accounts and sign-in", complexity: 6, points: 5 },
    { depth: 2, title: "Sign-up form with e-mail validation", complexity: 2, points: 2, atomic: true },
    { depth: 2, title: "Password reset by e-mail", complexity: 3, points: 3, atomic: true },
    { depth: 1, title: "Recipe editor with photo upload", complexity: 5, points: 5 },
    { depth: 1, title: "Search recipes by ingredient", complexity: 4, points: 3, atomic: true },
  ],
};

function ExampleTree() {
  return (
    <figure className="card w-full border border-base-300 bg-base-200 shadow-xl">
      <div className="card-body gap-3 p-5 sm:p-6">
        <figcaption className="text-xs font-semibold uppercase tracking-wider text-base-content/60">
          Example decomposition
        </figcaption>
        <p className="font-semibold">{EXAMPLE.root}</p>
        <ul className="space-y-2 text-sm">
          {EXAMPLE.items.map((item) => (
            <li
              key={item.title}
              className={`flex flex-wrap items-center gap-x-3 gap-y-1 rounded-box bg-base-100 px-3 py-2 ${
                item.depth === 2 ? "ml-5 border-l-2 border-primary/60" : ""
              }`}
            >
              <span className="min-w-48 flex-1">{item.title}</span>
              <span className="flex shrink-0 gap-1.5">
                <span className={`badge badge-sm badge-soft ${complexityBadgeClass(item.complexity)}`}>
                  Complexity {item.complexity}/10
                </span>
                <span className="badge badge-sm badge-soft badge-info">{item.points} pts</span>
              </span>
            </li>
          ))}
        </ul>
      </div>
    </figure>
  );
}

/**
 * 'See how it works' is a real in-page link (it works without scripts); this enhancement scrolls smoothly
 * (instantly when the visitor prefers reduced motion), keeps the URL clean and moves focus to the section.
 */
function useSmoothScrollLink(targetId: string) {
  const ref = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    const link = ref.current;
    if (!link) return;
    const onClick = (event: MouseEvent) => {
      const target = document.getElementById(targetId);
      if (!target || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
      event.preventDefault();
      const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      target.scrollIntoView({ behavior: reduceMotion ? "auto" : "smooth", block: "start" });
      target.focus({ preventScroll: true });
    };
    link.addEventListener("click", onClick);
    return () => link.removeEventListener("click", onClick);
  }, [targetId]);
  return ref;
}

/** Hero, a three-step 'How It Works', feature cards and calls to action. */
export default function LandingPage() {
  const { publicUrl, supportEmail, socialLinks } = usePublicConfig();
  const seeHowRef = useSmoothScrollLink("features");
  usePageMeta({
    title: "Plans from Plain Language",
    path: "/",
    description: DESCRIPTION,
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "Organization",
      name: PRODUCT_NAME,
      url: publicUrl,
      logo: new URL(logoUrl, publicUrl).href,
      description: `${PRODUCT_DESCRIPTION}.`,
      email: supportEmail,
      sameAs: socialLinks.map((s) => s.href),
    },
  });

  return (
    <div className="w-full">
      <section aria-labelledby="hero-heading" className="border-b border-base-300">
        <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 py-14 sm:py-20 lg:grid-cols-2">
          <div>
            <p className="badge badge-soft badge-primary mb-5">Project planning for developers</p>
            <h1
              id="hero-heading"
              className="text-4xl font-extrabold leading-tight tracking-tight text-balance sm:text-5xl"
            >
              Turn big ideas into <span className="text-primary">atomic, estimable tasks</span>
            </h1>
            <p className="mt-5 max-w-xl text-lg text-base-content/80">
              Describe your project in plain language. Atomize breaks it down into a tree of subtasks small
              enough to build, each with a complexity score and story points, plus epics, user stories and an
              event model.
            </p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
              <Link href="/login" className="btn btn-primary btn-lg">
                Get Started Free
              </Link>
              <Link href="/about" className="btn btn-outline btn-lg">
                Learn More<span className="sr-only"> about Atomize</span>
              </Link>
            </div>
            <a
              ref={seeHowRef}
              href="#features"
              className="link link-hover mt-5 inline-flex items-center gap-1 text-sm font-medium text-base-content/80"
            >
              See how it works
              <span aria-hidden="true">↓</span>
            </a>
          </div>
          <ExampleTree />
        </div>
      </section>

      <section aria-labelledby="how-heading" className="mx-auto max-w-7xl px-4 py-16 sm:py-20">
        <h2 id="how-heading" className="text-center text-3xl font-bold">
          How It Works
        </h2>
        <p className="mx-auto mt-3 max-w-2xl text-center text-base-content/75">
          From a paragraph of text to a plan your team can pick up, in three steps.
        </p>
        <ol className="mt-10 grid gap-6 md:grid-cols-3">
          {STEPS.map((step, i) => (
            <li key={step.title} className="card border border-base-300 bg-base-200">
              <div className="card-body">
                <span
                  aria-hidden="true"
                  className="flex size-10 items-center justify-center rounded-full bg-primary text-lg font-bold text-primary-content"
                >
                  {i + 1}
                </span>
                <h3 className="card-title mt-2">
                  <span className="sr-only">Step {i + 1}: </span>
                  {step.title}
                </h3>
                <p className="text-base-content/80">{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
      </section>

      <section
        id="features"
        tabIndex={-1}
        aria-labelledby="features-heading"
        className="scroll-mt-20 border-y border-base-300 bg-base-200/50 focus:outline-none"
      >
        <div className="mx-auto max-w-7xl px-4 py-16 sm:py-20">
          <h2 id="features-heading" className="text-center text-3xl font-bold">
            Everything you need to plan real work
          </h2>
          <p className="mx-auto mt-3 max-w-2xl text-center text-base-content/75">
            Atomize does the tedious first pass of planning, and leaves the decisions to you.
          </p>
          <ul className="mt-10 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
            {FEATURES.map((f) => (
              <li key={f.title} className="card border border-base-300 bg-base-100">
                <div className="card-body gap-3 p-6">
                  <span className="flex size-11 items-center justify-center rounded-box bg-primary/15 text-primary">
                    <Icon name={f.icon} />
                  </span>
                  <h3 className="text-lg font-semibold">{f.title}</h3>
                  <p className="text-sm text-base-content/80">{f.text}</p>
                </div>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="cta-heading" className="mx-auto max-w-4xl px-4 py-16 text-center sm:py-20">
        <h2 id="cta-heading" className="text-3xl font-bold text-balance">
          Ready to turn your next project into a plan?
        </h2>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-base-content/80">
          Create a free account and decompose your first project in minutes. No API key needed to start: you
          get an outline from your description, and a fuller plan once an AI model is connected.
        </p>
        <Link href="/login" className="btn btn-primary btn-lg mt-8 w-full sm:w-auto">
          Start Planning Now
        </Link>
      </section>
    </div>
  );
}
