import type { EvalCase } from "../case";

export const newProsePodcastSearch: EvalCase = {
  id: "new-prose-podcast-search",
  kind: "Ask HN-style post (media tool)",
  work_kind: "product",
  description: `Ask HN: feedback on my plan to make 900 hours of podcasts searchable

I keep half-remembering things I heard on podcasts and never finding them again, so over the next few weekends I want to build Earshot. You paste in RSS feeds and it polls them every hour for new episodes. It grabs the publisher's transcript when the feed has one, and otherwise downloads the audio and transcribes it locally on my GPU box. Everything lands in Postgres with full-text search, and every search hit links to the exact timestamp so the player jumps straight to that moment. There'll also be a weekly email digest of new episodes from the shows you follow.

Speaker labels, so you can tell host and guest apart, would be great, but that's for later. It will be rough around the edges (the UI will be, uh, functional). Happy to answer questions about the pipeline!`,
  requirements: [
    { id: "R1", text: "Paste in RSS feeds", match: ["RSS"] },
    { id: "R2", text: "Poll the feeds every hour for new episodes", match: ["poll"] },
    { id: "R3", text: "Use the publisher's transcript when the feed has one", match: ["publisher"] },
    { id: "R4", text: "Otherwise download the audio and transcribe it locally", match: ["transcrib"] },
    { id: "R5", text: "Full-text search in Postgres", match: ["full text"] },
    {
      id: "R6",
      text: "Search hits link to the exact timestamp; the player jumps there",
      match: ["timestamp"],
    },
    { id: "R7", text: "A weekly email digest of new episodes from followed shows", match: ["digest"] },
  ],
  technologies: ["postgresql"],
  non_goals: [{ text: "speaker labels", match: ["speaker"] }],
  not_work: [
    { text: "the title's 900 hours", match: ["900 hours"] },
    { text: "the half-remembering narrative", match: ["half-remember"] },
    { text: "rough around the edges", match: ["rough"] },
    { text: "Happy to answer questions", match: ["answer questions"] },
  ],
  separate: [["R5", "R6"]],
  sequence: [["R2", "R4", "R5"]],
  independent: [["R5", "R7"]],
  inspired_by:
    "https://cast2md.meltforce.org/getting-started (podcast transcription service: publisher transcripts first, local Whisper otherwise, full-text search in PostgreSQL) and the README of ccostes/podscript (transcripts of subscribed podcasts by email)",
};
