import type { EvalCase } from "../case";

export const godotRoguelike: EvalCase = {
  id: "godot-roguelike",
  kind: "game",
  application_type: "game",
  tech_stack_id: "godot-gdscript",
  description: `2D roguelike dungeon crawler in Godot 4 (GDScript). Procedurally generated dungeons, turn-based movement on a grid, melee and ranged combat, an inventory with 20 slots, permadeath with a meta-progression unlock tree between runs. Controller and keyboard support. Save the meta-progression locally. Target: Steam on Windows and Linux. Pixel art is done by a friend, so no art tasks.`,
  requirements: [
    { id: "R1", text: "Procedurally generated dungeons", match: ["procedural"] },
    { id: "R2", text: "Movement on a grid", match: ["grid"] },
    { id: "R3", text: "Turn-based movement", match: ["turn"] },
    { id: "R4", text: "Melee and ranged combat", match: ["ranged"] },
    { id: "R5", text: "An inventory with 20 slots", match: ["inventory"] },
    { id: "R6", text: "Permadeath", match: ["permadeath"] },
    { id: "R7", text: "A meta-progression unlock tree between runs", match: ["unlock"] },
    { id: "R8", text: "Controller and keyboard support", match: ["controller"] },
    { id: "R9", text: "Save the meta-progression locally", match: ["save"] },
    { id: "R10", text: "Released on Steam for Windows and Linux", match: ["Steam"] },
  ],
  technologies: ["godot", "gdscript"],
  non_goals: [
    { text: "art tasks", match: ["draw"] },
    { text: "art tasks", match: ["creat", "pixel art"] },
  ],
};
