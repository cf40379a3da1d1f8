import type { EvalCase } from "../case";

export const newPrdOnboardingPortal: EvalCase = {
  id: "new-prd-onboarding-portal",
  kind: "PRD with a table and a tasklist (HR web app)",
  work_kind: "product",
  description: `# PRD: New-hire onboarding portal

**Status:** draft · **Author:** People Ops · **Last updated:** 2 May

## Why
We hire 30-40 people a quarter across three offices. Today onboarding is a 60-row spreadsheet per hire that HR, IT and the hiring manager all edit, and things slip: laptops arrive after day one, accounts are missing, and nobody checks that the right tax forms came back.

## Goals:
(a) A new hire has a working laptop and accounts on day one.
(b) HR sees at a glance which hires are blocked, and on what.
(c) Every legally required document is collected before the first payroll run.

## Requirements

### New hire
- A personal portal from the moment the offer is signed: a welcome page, the first-week schedule, and a checklist of tasks with due dates.
- Upload ID and tax documents; e-sign the handbook and the NDA.
- Pick a laptop (Mac or Windows) and accessories.

### Hiring manager
- Assign a buddy and set up first-week meetings.
- See the new hire's checklist progress.

### IT
- An equipment request is created automatically when the laptop is picked, with the start date on it.
- Create the Google Workspace and Slack accounts the week before the start date.

### HR
- Checklist templates per role and per country.
- A dashboard of upcoming starts, with blocked items in red.
- An offboarding checklist that reuses the same templates (revoke accounts, collect equipment).

| Role | Sees | Edits |
| --- | --- | --- |
| New hire | own portal | own tasks and documents |
| Hiring manager | their hires | buddy, meetings |
| IT | equipment, accounts | equipment and account tasks |
| HR | everything | templates, all tasks |

## Progress
- [x] Interviews with HR, IT and five recent hires
- [x] Clickable mockups reviewed with People Ops

\`\`\`[tasklist]
### Milestones
- [ ] Portal and checklists
- [ ] Documents and e-signature
- [ ] Equipment and account requests
\`\`\`

## Future enhancements
- Integration with the payroll system.
- Learning paths and compliance training courses.`,
  requirements: [
    { id: "R1", text: "A personal portal with a welcome page", match: ["welcome"] },
    { id: "R2", text: "The first-week schedule", match: ["schedule"] },
    { id: "R3", text: "A checklist of tasks with due dates", match: ["due date"] },
    { id: "R4", text: "Upload ID and tax documents", match: ["upload"] },
    { id: "R5", text: "E-sign the handbook and the NDA", match: ["handbook"] },
    { id: "R6", text: "Pick a laptop and accessories", match: ["accessor"] },
    { id: "R7", text: "The hiring manager assigns a buddy", match: ["buddy"] },
    { id: "R8", text: "The hiring manager sees the checklist progress", match: ["progress"] },
    {
      id: "R9",
      text: "An equipment request created automatically when the laptop is picked",
      match: ["equipment request"],
    },
    {
      id: "R10",
      text: "Create the Google Workspace and Slack accounts the week before the start",
      match: ["Google Workspace"],
    },
    { id: "R11", text: "Checklist templates per role and per country", match: ["template", "country"] },
    { id: "R12", text: "A dashboard of upcoming starts with blocked items in red", match: ["dashboard"] },
    { id: "R13", text: "An offboarding checklist reusing the templates", match: ["offboard"] },
  ],
  technologies: ["google-workspace"],
  non_goals: [
    { text: "integration with the payroll system", match: ["payroll", "integrat"] },
    { text: "learning paths", match: ["learning path"] },
    { text: "compliance training courses", match: ["training course"] },
  ],
  not_work: [
    { text: "the status / author line", match: ["last updated"] },
    { text: "the 60-row spreadsheet narrative", match: ["60-row"] },
    { text: "[x] Interviews with HR, IT and recent hires (done)", match: ["interview"] },
    { text: "[x] Clickable mockups reviewed (done)", match: ["mockup"] },
  ],
  separate: [
    ["R1", "R2", "R3"],
    ["R4", "R5"],
    ["R11", "R12", "R13"],
  ],
  sequence: [
    ["R6", "R9"],
    ["R11", "R13"],
  ],
  independent: [
    ["R7", "R8"],
    ["R5", "R10"],
  ],
  inspired_by:
    "https://www.templateregistry.com/templates/requirements-for-onboarding (new-hire onboarding SOP: documents, accounts, hardware) and PageUp's 'Pre-implementation Onboarding Data Collection' article (knowledgeportal.pageuppeople.com)",
};
