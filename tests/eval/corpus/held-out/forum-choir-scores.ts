import type { EvalCase } from "../../case";

export const hoForumChoirScores: EvalCase = {
  id: "ho-forum-choir-scores",
  kind: "forum post with an idea and a question (sheet-music library)",
  work_kind: "product",
  description: `Idea: a searchable home for our choir's PDF scores. Worth building?

I direct a small parish choir. Over fifteen years I've collected around 2,000 PDFs of music: several settings of the same hymn so we can vary things, seasonal pieces we sing once a year and then can't find, music in different chant traditions. Right now it's folders inside folders on my laptop, and there is no way to ask "show me every Kievan-chant piece in tone 3 for Pascha".

What I'd like: upload PDFs in bulk, together with the MIDI rehearsal tracks I make for the singers. Fill in metadata for each piece: title, composer or arranger, tradition, tone, feast, voicing (SATB, TTBB...). Search and filter on any combination of those. Keep a score together with its individual voice parts and its MIDI files. Build a binder for a given Sunday with the pieces in service order and export it as one single PDF for printing. Singers should be able to open the week's binder on their phones. It should warn me when I upload something that looks like a duplicate.

One constraint: several of our older members are uneasy about big tech companies holding our stuff, so I'd like to self-host it on the little NAS in the choir loft.

OCR to fill in the metadata automatically would be lovely one day, but not now.

Is this a sensible evenings-and-weekends project for one person who knows a bit of Python, or should I keep looking for something that already exists?`,
  requirements: [
    { id: "R1", text: "Upload PDFs in bulk", match: ["bulk"] },
    { id: "R2", text: "Upload the MIDI rehearsal tracks", match: ["MIDI"] },
    {
      id: "R3",
      text: "Metadata for each piece (title, composer, tradition, tone, feast, voicing)",
      match: ["metadata"],
    },
    { id: "R4", text: "Search and filter on any combination of the metadata", match: ["filter"] },
    { id: "R5", text: "Keep a score with its voice parts and MIDI files", match: ["voice part"] },
    { id: "R6", text: "Build a binder for a Sunday in service order", match: ["binder"] },
    { id: "R7", text: "Export the binder as one single PDF", match: ["single PDF"] },
    { id: "R8", text: "Singers open the week's binder on their phones", match: ["phone"] },
    { id: "R9", text: "Warn on uploading a likely duplicate", match: ["duplicate"] },
    { id: "R10", text: "Self-hosted on the NAS in the choir loft", match: ["self host"] },
  ],
  technologies: ["python"],
  non_goals: [{ text: "OCR to fill in the metadata", match: ["OCR"] }],
  not_work: [
    { text: "the title's question", match: ["worth building"] },
    { text: "fifteen years of collecting", match: ["fifteen years"] },
    { text: "the example query", match: ["Pascha"] },
    { text: "the aside about big tech", match: ["big tech"] },
    { text: "the closing question", match: ["evenings"] },
  ],
  independent: [
    ["R8", "R9"],
    ["R2", "R9"],
  ],
  inspired_by:
    "https://github.com/dlkulp/KlirosManager (about/README.md: a choir director's searchable library of PDF scores)",
};
