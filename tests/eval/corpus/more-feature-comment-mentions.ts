import type { EvalCase } from "../case";

export const moreFeatureCommentMentions: EvalCase = {
  id: "more-feature-comment-mentions",
  kind: "feature for an existing product, with acceptance criteria and a negative constraint (team wiki)",
  work_kind: "feature",
  description: `Add @mentions to page comments

Today people copy the page link into a chat and tag each other there, so the discussion leaves the page and the context is lost. We want mentions inside comments.

What we need:
- Typing @ in the comment box opens an autocomplete of workspace members (name and avatar), filtered as you type.
- A mention is stored as the user id, so it survives a name change, and shown as a highlighted name that links to the profile.
- The mentioned person gets an in-app notification right away, and an email if they haven't read it within 15 minutes.
- A Mentions tab in the notification panel listing every comment that mentions you.
- A per-user setting to turn off mention emails.

Constraints:
- Never notify someone without access to the page, and don't even suggest them in the autocomplete.
- No notification for mentioning yourself, and no second notification when a comment is edited and the mention was already there.

Acceptance criteria
1. Typing "@an" in a comment lists Anna and Andrés, and not the guest Anton who has no access to the page.
2. Posting a comment creates exactly one notification for each mentioned user.
3. Editing the comment to add a second mention notifies only the new person.
4. With mention emails turned off, the in-app notification still arrives and no email is sent.

Out of scope: mentions in the page body itself, and group mentions like @team or @everyone.`,
  repository_summary: `acme/pageboard: a team wiki and docs tool. Laravel 10 API with a Vue 3 front end, MySQL 8, background jobs on Redis queues, transactional email through Postmark.`,
  requirements: [
    {
      id: "R1",
      text: "Typing @ opens an autocomplete of workspace members, filtered as you type",
      match: ["autocomplete"],
    },
    { id: "R2", text: "A mention is stored as the user id", match: ["user id"] },
    { id: "R3", text: "Shown as a highlighted name linking to the profile", match: ["highlight"] },
    { id: "R4", text: "An in-app notification right away", match: ["in-app"] },
    { id: "R5", text: "An email if unread within 15 minutes", match: ["15 minute"] },
    { id: "R6", text: "A Mentions tab in the notification panel", match: ["mentions tab"] },
    { id: "R7", text: "A per-user setting to turn off mention emails", match: ["setting"] },
    {
      id: "R8",
      text: "Never notify or suggest someone without access to the page",
      match: ["access"],
    },
    { id: "R9", text: "No notification for mentioning yourself", match: ["yourself"] },
    {
      id: "R10",
      text: "No second notification when an edited comment already had the mention",
      match: ["second notification"],
    },
  ],
  technologies: ["laravel", "vue", "mysql", "redis", "postmark"],
  non_goals: [
    { text: "mentions in the page body", match: ["page body"] },
    { text: "group mentions like @team or @everyone", match: ["group mention"] },
  ],
  not_work: [
    { text: "the rationale: tagging each other in a chat", match: ["page link"] },
    { text: "the rationale: the context is lost", match: ["context is lost"] },
  ],
  not_non_goals: [
    { text: "Never notify someone without access to the page", match: ["access"] },
    { text: "No notification for mentioning yourself", match: ["yourself"] },
  ],
  separate: [["R4", "R5"]],
  independent: [
    ["R3", "R6"],
    ["R1", "R7"],
  ],
  inspired_by:
    "https://github.com/nextcloud/server/issues/753 (user mentions in comments: notify only users with access, autocomplete, display names) and https://github.com/databrickslabs/ontos/issues/328 (@-mention notifications: author excluded, on edit only newly added recipients, acceptance criteria)",
};
