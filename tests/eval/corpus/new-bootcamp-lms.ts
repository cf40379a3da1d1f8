import type { EvalCase } from "../case";

export const newBootcampLms: EvalCase = {
  id: "new-bootcamp-lms",
  kind: "one-liner with a comma list (education web app)",
  work_kind: "product",
  description:
    "LMS for our 12-week coding bootcamp: courses split into modules with video lessons, quizzes with auto-grading, assignment uploads that mentors grade with a rubric, a discussion forum per cohort, and a certificate on completion.",
  requirements: [
    { id: "R1", text: "Courses split into modules", match: ["module"] },
    { id: "R2", text: "Video lessons", match: ["video"] },
    { id: "R3", text: "Quizzes with auto-grading", match: ["quiz"] },
    { id: "R4", text: "Assignment uploads", match: ["upload"] },
    { id: "R5", text: "Mentors grade assignments with a rubric", match: ["rubric"] },
    { id: "R6", text: "A discussion forum per cohort", match: ["forum"] },
    { id: "R7", text: "A certificate on completion", match: ["certificate"] },
  ],
  technologies: [],
  non_goals: [],
  separate: [["R2", "R3", "R4", "R6", "R7"]],
  independent: [
    ["R3", "R4"],
    ["R6", "R7"],
  ],
  inspired_by:
    "https://school.educat.com.ph/docs/lms (an LMS module's feature list: quizzes with auto-grading, assignments with rubrics, forums, certificates) and the UC Davis CodeLab 'Training Tool' write-up on Medium",
};
