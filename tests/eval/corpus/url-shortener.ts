import type { EvalCase } from "../case";

export const urlShortener: EvalCase = {
  id: "url-shortener",
  kind: "terse",
  description:
    "wanna build a url shortener w/ click analytics (country, referrer, device). go + redis, deploy to k8s. custom slugs, expiring links, api keys for the rest api",
  requirements: [
    { id: "R1", text: "Shorten URLs", match: ["short"] },
    { id: "R2", text: "Click analytics by country", match: ["country"] },
    { id: "R3", text: "Click analytics by referrer", match: ["referrer"] },
    { id: "R4", text: "Click analytics by device", match: ["device"] },
    { id: "R5", text: "Custom slugs", match: ["slug"] },
    { id: "R6", text: "Expiring links", match: ["expir"] },
    { id: "R7", text: "API keys for the REST API", match: ["api key"] },
    { id: "R8", text: "Deployed to k8s", match: ["k8s"] },
  ],
  technologies: ["go", "redis", "kubernetes"],
  non_goals: [],
};
