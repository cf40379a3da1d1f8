import type { EvalCase } from "../../case";

export const hoMlRequestRouting: EvalCase = {
  id: "ho-ml-request-routing",
  kind: "machine-learning plan with numbered steps (text classifier behind a public form)",
  work_kind: "data",
  description: `Auto-routing for the city's service requests

Residents report problems through the app and the web form: potholes, broken streetlights, fly-tipping, noise, overgrown trees. Today they also have to pick a category; about a third pick the wrong one, and misrouted requests take four days longer to close on average. We'd like the form to route on the description alone.

Data: 410,000 closed requests since 2019 in the reporting database, with the free text, the category the resident picked and the department that actually closed it. Use the closing department as the label (12 departments), not the resident's pick.

Steps:
1. Build the training set: strip names, phone numbers and email addresses from the text, drop requests shorter than 5 words, and hold out the most recent 3 months as the test set.
2. Baseline first: TF-IDF and logistic regression in scikit-learn. Then try a fine-tuned multilingual transformer (many reports are in Polish or Arabic) and keep it only if it beats the baseline by 3 points of macro F1.
3. Validate on the held-out months: macro F1 of at least 0.80, no department below 0.65 recall, and a confusion matrix for the department heads.
4. Deploy it behind the form as an internal API that returns the top department with its score; below 0.5 the request goes to the manual triage queue as it does today.
5. Shadow mode for two weeks (predict, don't route) and compare with the triage team before switching routing on.
6. Retrain monthly, and alert if the weekly share sent to manual triage goes above 25%.

Not in this project: sub-categories, and answering residents automatically.`,
  requirements: [
    { id: "R1", text: "Strip names, phone numbers and email addresses from the text", match: ["strip"] },
    { id: "R2", text: "Drop requests shorter than 5 words", match: ["5 words"] },
    { id: "R3", text: "Hold out the most recent 3 months as the test set", match: ["hold out"] },
    { id: "R4", text: "Label by the closing department", match: ["closing department"] },
    { id: "R5", text: "A TF-IDF and logistic regression baseline", match: ["baseline"] },
    { id: "R6", text: "Try a fine-tuned multilingual transformer", match: ["transformer"] },
    { id: "R7", text: "Keep the transformer only if it beats the baseline by 3 points", match: ["3 points"] },
    { id: "R8", text: "Validate on the held-out months: macro F1 of at least 0.80", match: ["validat"] },
    { id: "R9", text: "No department below 0.65 recall", match: ["recall"] },
    { id: "R10", text: "A confusion matrix for the department heads", match: ["confusion matrix"] },
    {
      id: "R11",
      text: "An internal API behind the form returning the top department and score",
      match: ["internal API"],
    },
    { id: "R12", text: "Below 0.5 the request goes to the manual triage queue", match: ["triage queue"] },
    { id: "R13", text: "Shadow mode for two weeks", match: ["shadow"] },
    { id: "R14", text: "Compare with the triage team before switching routing on", match: ["triage team"] },
    { id: "R15", text: "Retrain monthly", match: ["retrain"] },
    { id: "R16", text: "Alert if the weekly share sent to manual triage goes above 25%", match: ["alert"] },
  ],
  technologies: ["scikit-learn"],
  non_goals: [
    { text: "sub-categories", match: ["sub categor"] },
    { text: "answering residents automatically", match: ["answering"] },
  ],
  not_work: [{ text: "the cost of misrouting today", match: ["four days"] }],
  sequence: [
    ["R1", "R5", "R6", "R7", "R8", "R11", "R13", "R14", "R15"],
    ["R3", "R5"],
    ["R14", "R16"],
  ],
  independent: [
    ["R9", "R10"],
    ["R15", "R16"],
  ],
  inspired_by:
    "https://medium.com/maarten-sukel/how-to-use-machine-learning-for-the-classification-of-citizen-service-requests-b71159a85f36 and https://primwork.cc/shuanglovesdata/DataDive_2019_Project-311 (classifying 311 requests to route them to departments)",
};
