import type { EvalCase } from "../case";

export const opsMigPython312Upgrade: EvalCase = {
  id: "ops-mig-python-312-upgrade",
  kind: "runtime upgrade (Python 3.8 to 3.12)",
  work_kind: "migration",
  description: `Upgrade the ingest services from Python 3.8 to 3.12 (3.8 is end of life)

Python 3.8 reached end of life in October 2024 and gets no more security fixes. Our three ingest services (\`ingest-api\`, \`ingest-worker\`, \`ingest-scheduler\`) still run on \`python:3.8-slim-bullseye\`, and the dependency update PRs have been failing for weeks because the new versions of pandas, numpy and pytest need a newer interpreter (numpy 2.x needs 3.10+).

Scope:
- Base images: move all three Dockerfiles to \`python:3.12-slim-bookworm\`
- Dependencies: unpin and upgrade pandas, numpy and pytest, and SQLAlchemy 1.4 → 2.0, which changes the query API in ~40 places; regenerate the lock file with pip-tools
- Code: replace the removed \`distutils\` imports and the \`asyncio.get_event_loop()\` calls that warn on 3.12
- CI: run the GitHub Actions matrix on 3.12 only (we don't ship libraries, so there's no need to support several versions)
- Set \`requires-python = ">=3.12"\` in pyproject.toml
- Roll out one service at a time, \`ingest-scheduler\` first since it's the least critical, and watch error rates for 24 h before the next one

Out of scope: switching to Poetry, and moving off Celery.`,
  requirements: [
    { id: "R1", text: "Move the three Dockerfiles to the python:3.12 base image", match: ["base image"] },
    { id: "R2", text: "Upgrade pandas, numpy and pytest", match: ["numpy"] },
    { id: "R3", text: "Upgrade SQLAlchemy 1.4 to 2.0 and its query API", match: ["SQLAlchemy"] },
    { id: "R4", text: "Regenerate the lock file with pip-tools", match: ["lock file"] },
    { id: "R5", text: "Replace the removed distutils imports", match: ["distutils"] },
    { id: "R6", text: "Replace the asyncio.get_event_loop() calls", match: ["get_event_loop"] },
    { id: "R7", text: "Run the GitHub Actions matrix on 3.12 only", match: ["matrix"] },
    { id: "R8", text: "Set requires-python in pyproject.toml", match: ["requires-python"] },
    {
      id: "R9",
      text: "Roll out one service at a time, ingest-scheduler first",
      match: ["ingest-scheduler"],
    },
    { id: "R10", text: "Watch error rates for 24 h before the next service", match: ["error rates"] },
  ],
  technologies: [
    "python",
    "sqlalchemy",
    "github-actions",
    "pytest",
    "docker",
    "pandas",
    "numpy",
    "pip",
    "poetry",
    "celery",
  ],
  non_goals: [
    { text: "switching to Poetry", match: ["Poetry"] },
    { text: "moving off Celery", match: ["off Celery"] },
  ],
  not_work: [
    { text: "the end-of-life rationale", match: ["October 2024"] },
    { text: "why the dependency update PRs fail", match: ["weeks"] },
  ],
  sequence: [
    ["R1", "R9"],
    ["R3", "R9"],
  ],
  separate: [
    ["R2", "R3"],
    ["R5", "R6"],
  ],
  independent: [
    ["R2", "R3"],
    ["R5", "R6"],
    ["R7", "R8"],
  ],
  inspired_by:
    "https://github.com/ProjectSidewalk/SidewalkWebpage/issues/4412 (Python 3.8 to 3.12, EOL runtime blocking dependency updates) and https://github.com/fabriziosalmi/pdf-ocr/issues/18 (CI matrix before the new base image)",
};
