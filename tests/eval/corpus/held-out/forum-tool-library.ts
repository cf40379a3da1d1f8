import type { EvalCase } from "../../case";

export const hoForumToolLibrary: EvalCase = {
  id: "ho-forum-tool-library",
  kind: "forum post asking for advice (community lending web app)",
  work_kind: "product",
  description: `Looking for advice: a simple lending system for our neighbourhood tool library

Bit of background: we started two years ago in a church basement with a box of donated drills. We're now at about 300 items and 150 members, run entirely by volunteers on Saturday mornings, and everything lives in a ring binder that nobody can read. Last month a tile cutter went missing and we honestly couldn't tell who had it last.

What I think we need: every item gets a sticker with a QR code and an ID. Volunteers check things out and back in by scanning the sticker and the member card, and the loan gets a due date (a week unless someone changes it). We keep borrower records with a phone number or email. The system emails a reminder two days before something is due and again when it's overdue. On return the volunteer notes the condition, with an optional photo, and can flag an item as "in repair" so nobody can borrow it until it's fixed. Members should be able to browse the catalogue from home and reserve something for the next Saturday. It has to run on the old tablet we keep at the front desk.

We don't need payments: membership is pay-what-you-can into a jar and that works fine.

We looked at the commercial lending platforms but the monthly fee is more than we take in. (Also, huge thanks to Marguerite, who spent the whole winter photographing every single drill bit set.)

Has anyone here built something like this? Is it a reasonable project for a couple of volunteers who code a bit, or are we kidding ourselves?`,
  requirements: [
    { id: "R1", text: "Every item gets a sticker with a QR code and an ID", match: ["QR"] },
    { id: "R2", text: "Check items out and back in by scanning", match: ["scan"] },
    { id: "R3", text: "Scan the member card", match: ["member card"] },
    { id: "R4", text: "Each loan gets a due date, a week by default", match: ["due date"] },
    { id: "R5", text: "Borrower records with a phone number or email", match: ["borrower"] },
    { id: "R6", text: "A reminder email two days before the due date", match: ["reminder"] },
    { id: "R7", text: "An email when a loan is overdue", match: ["overdue"] },
    { id: "R8", text: "Note the condition on return, with an optional photo", match: ["condition"] },
    { id: "R9", text: 'Flag an item "in repair" so it cannot be borrowed', match: ["repair"] },
    { id: "R10", text: "Members browse the catalogue from home", match: ["catalog"] },
    { id: "R11", text: "Members reserve an item for the next Saturday", match: ["reserve"] },
    { id: "R12", text: "Runs on the old tablet at the front desk", match: ["tablet"] },
  ],
  technologies: [],
  non_goals: [{ text: "payments", match: ["payment"] }],
  not_work: [
    { text: "the title's request for advice", match: ["advice"] },
    { text: "the church-basement history", match: ["church"] },
    { text: "the ring binder", match: ["ring binder"] },
    { text: "the missing tile cutter", match: ["tile cutter"] },
    { text: "why not the commercial platforms", match: ["monthly fee"] },
    { text: "the thanks to a volunteer", match: ["Marguerite"] },
    { text: "the closing question", match: ["kidding"] },
  ],
  independent: [
    ["R6", "R7"],
    ["R8", "R11"],
  ],
  inspired_by:
    "https://koder.ai/blog/tool-lending-library-tracking-system and https://www.buildshare.org/playbooks/tool-library (what a neighbourhood tool library tracks)",
};
