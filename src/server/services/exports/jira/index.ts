export { adfText } from "./adf-text";
export { jiraExporter } from "./exporter";
export {
  adf,
  DESCRIPTION_CUT_NOTE,
  DESCRIPTION_MAX,
  exportMarker,
  issueFields,
  planIssues,
} from "./payloads";
export { jqlString } from "./search";
