import type { EvalCase } from "../case";

/** Trap: "error messages" is about diagnostics, not a messaging feature. */
export const rustInterpreter: EvalCase = {
  id: "rust-interpreter",
  kind: "interpreter (Rust)",
  description: `Toy language interpreter in Rust for teaching. Pipeline: lexer, recursive-descent parser producing an AST, a tree-walking evaluator, and a REPL. The language has integers, strings, let bindings, if/else, while loops, first-class functions and closures. Error messages must point at the exact line/column with a caret under the offending token, like rustc does. Include a test suite of example programs with expected output (golden files). No bytecode VM or JIT for now.`,
  requirements: [
    { id: "R1", text: "A lexer", match: ["lexer"] },
    { id: "R2", text: "A recursive-descent parser", match: ["parser"] },
    { id: "R3", text: "The parser produces an AST", match: ["AST"] },
    { id: "R4", text: "A tree-walking evaluator", match: ["evaluat"] },
    { id: "R5", text: "A REPL", match: ["REPL"] },
    { id: "R6", text: "Let bindings", match: ["let binding"] },
    { id: "R7", text: "if/else", match: ["if/else"] },
    { id: "R8", text: "While loops", match: ["while loop"] },
    { id: "R9", text: "First-class functions and closures", match: ["closure"] },
    { id: "R10", text: "Error messages point at the exact line/column", match: ["line", "column"] },
    { id: "R11", text: "A caret under the offending token", match: ["caret"] },
    { id: "R12", text: "Golden-file tests of example programs", match: ["golden"] },
  ],
  technologies: ["rust"],
  non_goals: [
    { text: "a bytecode VM", match: ["bytecode"] },
    { text: "a JIT", match: ["JIT"] },
  ],
};
