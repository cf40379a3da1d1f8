import type { EvalCase } from "../case";

export const newFeatureOfflineInspections: EvalCase = {
  id: "new-feature-offline-inspections",
  kind: "feature for an existing mobile app, with acceptance criteria (field service)",
  work_kind: "feature",
  description: `Feature: offline mode for the FieldCheck inspection app

Our inspectors work in basements, tunnels and rural substations, and the app currently shows a spinner forever when there's no signal. Add offline support to the existing Flutter app:

- Download the day's assigned inspections (checklists, previous findings, site photos) when the inspector opens the app on Wi-Fi in the morning.
- Fill in checklists, take photos and sign off an inspection without a connection; everything is kept on the device.
- Queue the changes and sync them automatically when the connection comes back, photos last and in the background.
- Show an offline banner and a count of the items waiting to sync.
- If the office edited the same inspection in the meantime, the office's version wins for the checklist and the inspector sees a notice; photos are never dropped.

Out of scope: editing one inspection on two devices at once, and offline access to inspections older than 30 days.

Acceptance criteria
* An inspection completed in airplane mode shows up in the back office within a minute of reconnecting.
* Killing the app while offline loses nothing.
* A 200-photo inspection syncs without blocking the UI.`,
  repository_summary: `fieldcheck/mobile: a Flutter 3 app (Dart) talking to a REST API written in Kotlin with Ktor, on PostgreSQL; photos are stored in S3.`,
  requirements: [
    {
      id: "R1",
      text: "Download the day's assigned inspections on Wi-Fi in the morning",
      match: ["download"],
    },
    {
      id: "R2",
      text: "Fill in checklists, take photos and sign off an inspection without a connection",
      match: ["sign off"],
    },
    { id: "R3", text: "Everything is kept on the device", match: ["device"] },
    {
      id: "R4",
      text: "Queue the changes and sync them automatically when the connection comes back",
      match: ["queue"],
    },
    { id: "R5", text: "Photos sync last, in the background", match: ["background"] },
    { id: "R6", text: "An offline banner", match: ["banner"] },
    { id: "R7", text: "A count of the items waiting to sync", match: ["count"] },
    {
      id: "R8",
      text: "On a conflict the office's version wins and the inspector sees a notice",
      match: ["wins"],
    },
  ],
  technologies: ["flutter", "dart", "kotlin", "ktor", "postgresql", "s3"],
  non_goals: [
    { text: "editing one inspection on two devices at once", match: ["two devices"] },
    { text: "offline access to inspections older than 30 days", match: ["older than"] },
  ],
  not_work: [
    { text: "where the inspectors work", match: ["substation"] },
    { text: "the spinner that shows forever", match: ["spinner"] },
  ],
  separate: [
    ["R6", "R7"],
    ["R4", "R5"],
  ],
  sequence: [["R3", "R4"]],
  independent: [
    ["R1", "R6"],
    ["R6", "R8"],
  ],
  inspired_by:
    "GitHub issues DanyloAksonov/ambry_native#35 '[Epic] Basic offline mode' (offline reads, write queue synced on reconnect, offline indicator, multi-device conflicts out of scope) and marco308/mdone#8 'Complete offline sync with pending operations'",
};
