import type { EvalCase } from "../../case";

export const hoPhotoSorterCli: EvalCase = {
  id: "ho-photo-sorter-cli",
  kind: "one-liner with a comma list (Rust CLI)",
  work_kind: "product",
  description:
    "cli in Rust to sort the dump of photos off our phones: read the EXIF date (fall back to the file mtime), move or copy into year/month/day folders, rename to date--time--hash, skip exact duplicates by sha256, a --dry-run that only prints what it would do, and a CSV report of every action. videos too (mp4/mov)",
  requirements: [
    { id: "R1", text: "Read the EXIF date of each photo", match: ["read", "EXIF"] },
    { id: "R2", text: "Fall back to the file mtime", match: ["mtime"] },
    { id: "R3", text: "Move or copy into year/month/day folders", match: ["year/month"] },
    { id: "R4", text: "Rename to date--time--hash", match: ["rename"] },
    { id: "R5", text: "Skip exact duplicates by sha256", match: ["duplicate"] },
    { id: "R6", text: "A --dry-run that only prints what it would do", match: ["dry run"] },
    { id: "R7", text: "A CSV report of every action", match: ["CSV"] },
    { id: "R8", text: "Videos too (mp4/mov)", match: ["video"] },
  ],
  technologies: ["rust"],
  non_goals: [],
  separate: [["R1", "R3", "R5", "R6", "R7"]],
  independent: [
    ["R6", "R7"],
    ["R5", "R8"],
  ],
  inspired_by: "https://github.com/xandkar/phorg (README of an EXIF-based photo organizer CLI in Rust)",
};
