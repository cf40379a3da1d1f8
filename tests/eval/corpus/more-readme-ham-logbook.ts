import type { EvalCase } from "../case";

export const moreReadmeHamLogbook: EvalCase = {
  id: "more-readme-ham-logbook",
  kind: "README with a roadmap (amateur radio terminal app)",
  work_kind: "product",
  description: `# qsolog

A terminal logbook for amateur radio operators. Log contacts (QSOs) quickly during a contest or a lazy Sunday on the bands, and keep them in one SQLite file that you own. Written in Rust.

https://qsolog.example.org

## Why
Most loggers are Windows-only GUI programs that want a mouse for every field. On a Raspberry Pi next to the rig, at 2 a.m., you want to type a call and hit Enter.

## Features
1) Quick entry: type \`K1ABC 14.074 FT8 -12\` and press Enter; the band, UTC time and your station details are filled in for you
2) Callsign lookup on QRZ.com (name, grid square, country) while you type, with a local cache so repeat lookups work offline
3) Dupe check: a warning when a station was already worked on the same band and mode
4) ADIF import and export, round-trip safe (fields qsolog doesn't know are kept as they are)

## Install
\`\`\`sh
cargo install qsolog
qsolog init --call PA3XYZ --grid JO22
\`\`\`

## Config:
| Key | Default | Meaning |
|---|---|---|
| \`call\` | none | your callsign |
| \`grid\` | none | your Maidenhead locator |
| \`db\` | \`~/.qsolog/log.db\` | the SQLite file |

## Roadmap
- [x] Config file and \`qsolog init\`
- [x] Storage in SQLite
- [ ] (a) Upload new QSOs to LoTW, signed with the operator's TQSL certificate
- [ ] (b) Cabrillo export for contest submissions
- [ ] (c) Award progress: DXCC entities worked and confirmed, per band
- [ ] Windows build in CI

## Not planned
- Rig control (CAT)
- A GUI`,
  requirements: [
    {
      id: "R1",
      text: "Quick entry that fills in the band, UTC time and station details",
      match: ["quick entry"],
    },
    { id: "R2", text: "Callsign lookup on QRZ.com while typing", match: ["lookup"] },
    { id: "R3", text: "A local cache so repeat lookups work offline", match: ["cache"] },
    { id: "R4", text: "Dupe check on the same band and mode", match: ["dupe"] },
    { id: "R5", text: "ADIF import and export, round-trip safe", match: ["ADIF"] },
    { id: "R6", text: "Upload new QSOs to LoTW with the TQSL certificate", match: ["LoTW"] },
    { id: "R7", text: "Cabrillo export for contest submissions", match: ["Cabrillo"] },
    { id: "R8", text: "Award progress: DXCC entities per band", match: ["award"] },
    { id: "R9", text: "A Windows build in CI", match: ["Windows build"] },
  ],
  technologies: ["rust", "sqlite", "raspberry-pi", "cargo"],
  non_goals: [
    { text: "rig control (CAT)", match: ["rig control"] },
    { text: "a GUI", match: ["GUI"] },
  ],
  not_work: [
    { text: "the URL-only line", match: ["qsolog.example.org"] },
    { text: "the 'Why' section", match: ["Windows-only"] },
    { text: "the 'Why' section", match: ["2 a.m."] },
    { text: "the install commands", match: ["PA3XYZ"] },
    { text: "the config table", match: ["Maidenhead"] },
    { text: "[x] Config file and qsolog init (done)", match: ["config file"] },
    { text: "[x] Storage in SQLite (done)", match: ["SQLite", "storage"] },
  ],
  separate: [
    ["R1", "R2", "R4", "R5"],
    ["R6", "R7", "R8", "R9"],
  ],
  independent: [
    ["R4", "R7"],
    ["R8", "R9"],
  ],
  inspired_by:
    "README of ErnieTech101/WSJTXLogViewer (terminal UI for ADIF logs with QRZ XML callsign lookup) and the hamloghs README (command-line station log tools on ADIF, LotW, Cabrillo)",
};
