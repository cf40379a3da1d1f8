import type { EvalCase } from "../case";

export const fitFilePackage: EvalCase = {
  id: "fit-file-package",
  kind: "terse",
  description:
    "python package to parse garmin .fit files into pandas dataframes. should handle corrupted files gracefully, support laps + records + sessions, publish on pypi, type hints, python 3.10+",
  requirements: [
    { id: "R1", text: "Parse Garmin .fit files", match: ["fit file"] },
    { id: "R2", text: "Into pandas dataframes", match: ["dataframe"] },
    { id: "R3", text: "Handle corrupted files gracefully", match: ["corrupt"] },
    { id: "R4", text: "Support laps", match: ["lap"] },
    { id: "R5", text: "Support records", match: ["record"] },
    { id: "R6", text: "Support sessions", match: ["session"] },
    { id: "R7", text: "Published on PyPI", match: ["PyPI"] },
    { id: "R8", text: "Type hints", match: ["type hint"] },
    { id: "R9", text: "Python 3.10+", match: ["3.10"] },
  ],
  technologies: ["python", "pandas", "pip"],
  non_goals: [],
};
