import type { EvalCase } from "../case";

export const newReadmeTacticsGame: EvalCase = {
  id: "new-readme-tactics-game",
  kind: "game jam README (Godot)",
  work_kind: "product",
  description: `# Ironhold — a small turn-based tactics game

Made in Godot 4 for a 3-week jam (theme: "holding the line"). You defend a mountain fort against waves of raiders with five units on a hex grid.

## Planned features
- Hex grid movement with terrain costs (forest 2, hills 3, rivers block)
- Four unit classes: knight, archer, healer and engineer; the engineer can build barricades
- Enemy AI that goes for the weakest reachable unit
- Wave system: 8 waves, with a shop between waves to spend gold on upgrades
- Fog of war
- Save and load between waves

## Controls
| Input | Action |
| --- | --- |
| Left click | select / move |
| Right click | cancel |
| Space | end turn |

## Release checklist
1- Web export from the "Web" preset
2- itch.io page with a GIF and the controls
3- Submit to the jam before Sunday 23:59 UTC

\`\`\`sh
godot --headless --export-release "Web" build/index.html
\`\`\`

## Stretch goals
- Local 2-player hot-seat mode
- A level editor
- Controller support`,
  requirements: [
    { id: "R1", text: "Hex grid movement", match: ["hex"] },
    { id: "R2", text: "Terrain costs (forest, hills, rivers block)", match: ["terrain"] },
    { id: "R3", text: "Four unit classes", match: ["unit class"] },
    { id: "R4", text: "The engineer builds barricades", match: ["barricade"] },
    { id: "R5", text: "Enemy AI that goes for the weakest reachable unit", match: ["enemy AI"] },
    { id: "R6", text: "A wave system with 8 waves", match: ["wave system"] },
    { id: "R7", text: "A shop between waves to spend gold on upgrades", match: ["shop"] },
    { id: "R8", text: "Fog of war", match: ["fog"] },
    { id: "R9", text: "Save and load between waves", match: ["save"] },
    { id: "R10", text: "Mouse controls, Space ends the turn", match: ["end turn"] },
    { id: "R11", text: "A web export", match: ["export"] },
    { id: "R12", text: "An itch.io page with a GIF and the controls", match: ["itch"] },
    { id: "R13", text: "Submit to the jam before the deadline", match: ["submit"] },
  ],
  technologies: ["godot"],
  non_goals: [
    { text: "local 2-player hot-seat mode", match: ["hot seat"] },
    { text: "a level editor", match: ["level editor"] },
    { text: "controller support", match: ["controller support"] },
  ],
  not_work: [
    { text: "the jam theme", match: ["holding the line"] },
    { text: "the export command line", match: ["headless"] },
  ],
  separate: [["R1", "R3", "R5", "R6", "R8", "R9"]],
  sequence: [["R11", "R12", "R13"]],
  independent: [
    ["R8", "R9"],
    ["R4", "R7"],
  ],
  inspired_by:
    "README of trigardon10/Neuro-Tactics (Godot jam tactics game: planned features, possible future features) and the README of a Godot tactical RPG, 'Tensile Tactics' (GitHub)",
};
