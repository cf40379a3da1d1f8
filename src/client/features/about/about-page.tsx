import { Link } from "wouter";
import { usePageMeta } from "../../components/use-page-meta";

const PRINCIPLES = [
  {
    title: "Atomic work",
    text: "A task is ready when one person can pick it up, finish it and know it is done. Atomize keeps breaking work down until every leaf of the tree reaches that point, so nothing vague hides inside a big ticket.",
  },
  {
    title: "Honest estimates",
    text: "Complexity scores and story points are a consistent first estimate, not a promise. They make the size of the work visible early, when it is still cheap to change the plan, and your team's judgement has the final word.",
  },
  {
    title: "People review every plan",
    text: "A plan is a first draft, whether an AI model wrote it or it is an outline of your own description, and it can be wrong. Every tree stays editable, and nothing reaches JIRA, Trello or GitHub until you have reviewed it and chosen to export it.",
  },
];

const CURRENT_FEATURES = [
  "Plain-language task descriptions decomposed into a tree of atomic subtasks, live, stage by stage",
  "Complexity scores out of 10 and story-point estimates for every subtask",
  "Epics, user stories with acceptance criteria, and an event model with swimlanes and chapters",
  "10 application types and 67 tech stacks, plus optional context from a GitHub repository",
  "Editing before you commit: change descriptions, add or remove subtasks, restart a decomposition",
  "Exports to JIRA (with Confluence pages), Trello and GitHub Issues, and downloads as JSON, Markdown or CSV",
  "Without an AI model, an outline made from your description (every stated requirement, nothing invented); with an OpenAI-compatible model you connect, or one your instance provides, a fuller plan",
  "A blog with product news and optional e-mail updates",
];

const UPCOMING_FEATURES = [
  {
    title: "Team workspaces",
    text: "Share task trees with your team, assign subtasks and discuss them in one place.",
  },
  {
    title: "Sprint planning",
    text: "Fill sprints from the tree by priority and capacity, using the story points Atomize already estimates.",
  },
  {
    title: "Effort calibration from history",
    text: "Compare estimates with the work you completed to tune complexity scores and story points to your team.",
  },
  {
    title: "Two-way tracker sync",
    text: "Keep task status in step with JIRA, Trello and GitHub after an export.",
  },
];

/** Mission, philosophy, current and upcoming features, and 'Join the Future'. */
export default function AboutPage() {
  usePageMeta({
    title: "About",
    path: "/about",
    description:
      "Why Atomize exists: turning plain-language project descriptions into atomic, estimable tasks that people review before they commit.",
  });

  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-12 sm:py-16">
      <header className="max-w-3xl">
        <h1 className="text-4xl font-extrabold tracking-tight">About Atomize</h1>
        <p className="mt-4 text-lg text-base-content/80">
          Atomize helps developers and software teams go from an idea to a plan they can start on today.
        </p>
      </header>

      <section aria-labelledby="mission-heading" className="mt-12">
        <h2 id="mission-heading" className="text-2xl font-bold">
          Our Mission
        </h2>
        <div className="mt-4 max-w-3xl space-y-4 text-base-content/85">
          <p>
            Projects rarely stall for lack of ideas. They stall because large, fuzzy work is hard to plan,
            hard to estimate and hard to hand over. Hours go into splitting features into tickets, and the
            estimates that come out are often guesses.
          </p>
          <p>
            Our mission is to make that first pass fast and dependable: describe what you want to build in
            your own words, and get back small, well-defined tasks with honest estimates, organized into epics
            and user stories, in the tools your team already uses.
          </p>
        </div>
      </section>

      <section aria-labelledby="philosophy-heading" className="mt-12">
        <h2 id="philosophy-heading" className="text-2xl font-bold">
          Our Philosophy
        </h2>
        <ul className="mt-6 grid gap-5 md:grid-cols-3">
          {PRINCIPLES.map((p) => (
            <li key={p.title} className="card border border-base-300 bg-base-200">
              <div className="card-body">
                <h3 className="card-title">{p.title}</h3>
                <p className="text-base-content/80">{p.text}</p>
              </div>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="current-heading" className="mt-12">
        <h2 id="current-heading" className="text-2xl font-bold">
          What Atomize Does Today
        </h2>
        <ul className="mt-5 grid gap-3 md:grid-cols-2">
          {CURRENT_FEATURES.map((feature) => (
            <li key={feature} className="flex gap-3 rounded-box bg-base-200 p-4">
              <span aria-hidden="true" className="mt-0.5 font-bold text-success">
                ✓
              </span>
              <span className="text-base-content/85">{feature}</span>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="upcoming-heading" className="mt-12">
        <div className="flex flex-wrap items-center gap-3">
          <h2 id="upcoming-heading" className="text-2xl font-bold">
            Coming Next
          </h2>
          <span className="badge badge-soft badge-warning">Upcoming</span>
        </div>
        <p className="mt-3 max-w-3xl text-base-content/75">
          These features are on our roadmap and are not available yet. We will announce them on the blog when
          they ship.
        </p>
        <ul className="mt-6 grid gap-5 sm:grid-cols-2">
          {UPCOMING_FEATURES.map((f) => (
            <li key={f.title} className="card border border-dashed border-base-300">
              <div className="card-body">
                <h3 className="card-title flex-wrap">
                  {f.title}
                  <span className="badge badge-sm badge-outline font-normal">Upcoming</span>
                </h3>
                <p className="text-base-content/80">{f.text}</p>
              </div>
            </li>
          ))}
        </ul>
      </section>

      <section
        aria-labelledby="join-heading"
        className="mt-14 rounded-box border border-primary/30 bg-primary/10 px-6 py-10 text-center"
      >
        <h2 id="join-heading" className="text-2xl font-bold">
          Plan your next project with Atomize
        </h2>
        <p className="mx-auto mt-3 max-w-2xl text-base-content/80">
          Sign up for free, describe a project and see it decomposed into tasks you can estimate and ship.
        </p>
        <Link href="/login" className="btn btn-primary btn-lg mt-6 w-full sm:w-auto">
          Join the Future
        </Link>
      </section>
    </div>
  );
}
