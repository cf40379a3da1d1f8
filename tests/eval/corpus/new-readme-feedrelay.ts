import type { EvalCase } from "../case";

export const newReadmeFeedrelay: EvalCase = {
  id: "new-readme-feedrelay",
  kind: "README with a roadmap (devtool)",
  work_kind: "product",
  description: `# feedrelay

Watch RSS and Atom feeds and post new items to Slack, Discord or any webhook. One small Go binary, with its state in SQLite so nothing is posted twice after a restart.

Source code at https://github.com/feedrelay/feedrelay

## What it does
- Polls each feed on its own interval (default 15 minutes), sending ETag / Last-Modified so we don't hammer anyone's server
- Remembers which items were already sent, so a restart doesn't repost them
- Message templates per feed (title, link, summary)
- Include / exclude filters on the item title (regex)
- Rate limit: at most N items per feed per poll, so a feed that suddenly dumps 200 items doesn't flood a channel

## Configuration

\`\`\`yaml
interval: 15m
feeds:
  - url: https://blog.example.com/feed.xml
    target: slack-eng
    include: "(?i)release"
targets:
  slack-eng:
    type: slack
    webhook: \${SLACK_WEBHOOK_URL}
\`\`\`

| Key | Default | Meaning |
| --- | --- | --- |
| \`interval\` | \`15m\` | how often feeds are polled |
| \`max_items\` | \`5\` | items posted per feed per poll |
| \`state\` | \`./feedrelay.db\` | the SQLite file |

## Roadmap
- [x] Slack target
- [x] Discord target
- [ ] Generic webhook target with a JSON body template
- [ ] Docker image
- [ ] \`feedrelay test <feed>\` command that sends one sample message
- [ ] Prometheus metrics endpoint

## Stretch goals
- Web UI for editing the config
- Email digest target`,
  requirements: [
    { id: "R1", text: "Poll each feed on its own interval", match: ["interval"] },
    { id: "R2", text: "Send ETag / Last-Modified when polling", match: ["ETag"] },
    { id: "R3", text: "Remember sent items in SQLite so a restart doesn't repost them", match: ["SQLite"] },
    { id: "R4", text: "Message templates per feed", match: ["message template"] },
    { id: "R5", text: "Include / exclude filters on the item title", match: ["filter"] },
    { id: "R6", text: "Rate limit: at most N items per feed per poll", match: ["rate limit"] },
    { id: "R7", text: "A generic webhook target with a JSON body template", match: ["generic webhook"] },
    { id: "R8", text: "A Docker image", match: ["Docker"] },
    { id: "R9", text: "A `feedrelay test` command that sends one sample message", match: ["sample message"] },
    { id: "R10", text: "A Prometheus metrics endpoint", match: ["Prometheus"] },
  ],
  technologies: ["go", "sqlite", "docker", "prometheus"],
  non_goals: [
    { text: "a web UI for editing the config", match: ["web UI"] },
    { text: "an email digest target", match: ["email digest"] },
  ],
  not_work: [
    { text: "[x] Slack target (done)", match: ["Slack target"] },
    { text: "[x] Discord target (done)", match: ["Discord target"] },
    { text: "the source code link", match: ["source code at"] },
    { text: "the 'What it does' heading", match: ["what it does"] },
    { text: "the example configuration", match: ["slack-eng"] },
  ],
  separate: [
    ["R1", "R3", "R4", "R5", "R6"],
    ["R7", "R8", "R9", "R10"],
  ],
  independent: [
    ["R4", "R7"],
    ["R5", "R6"],
  ],
  inspired_by:
    "README of 101br03k/rss-to-webhook (RSS to webhook notifier: state to avoid duplicates, per-feed settings, rate limiting) and README of jamielinux/feed-notifier (etag / last-modified, 'Coming soon' list)",
};
