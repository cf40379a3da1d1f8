import type { EvalCase } from "../case";

export const opsBugCsvUmlautsExcel: EvalCase = {
  id: "ops-bug-csv-umlauts-excel",
  kind: "bug report (CSV export encoding, Laravel)",
  work_kind: "bug",
  description: `CSV export: umlauts broken when the file is opened in Excel (ä → Ã¤)

Reported by three customers in Germany and Austria this week (tickets #4471, #4480, #4502).

**Steps to reproduce**
1. Log in as an account whose contacts have umlauts in their names (e.g. "Jürgen Müller", "Österreich Handels GmbH")
2. Go to Contacts → Export → CSV
3. Double-click the downloaded contacts.csv to open it in Excel (Windows, German locale)

**Expected behavior**
Names show as "Jürgen Müller", and each field is in its own column.

**Actual behavior**
Names show as "JÃ¼rgen MÃ¼ller", and every row ends up in column A because German Excel expects \`;\` as the separator. LibreOffice and Google Sheets open the same file fine.

**Environment**
- App v5.12.0, Laravel 10.48, PHP 8.2
- Excel for Microsoft 365, Windows 11 (de-DE)

**Log**
Nothing is logged as an error; the export job finishes normally:
\`\`\`
[2024-05-06 10:21:44] production.INFO: ExportContactsJob finished {"account":8812,"rows":1530,"ms":412}
\`\`\`

**Suggested fix**
Write a UTF-8 BOM at the start of the file, and add a "Delimiter" setting to the export dialog (comma or semicolon, defaulting to semicolon for German and Austrian accounts). The invoices CSV uses the same exporter, so both exports should get the fix. Please add a PHPUnit test that checks the first three bytes of the file.

**Workaround**
In Excel, use Data → From Text/CSV and pick UTF-8 by hand.`,
  requirements: [
    { id: "R1", text: "Write a UTF-8 BOM at the start of the file", match: ["BOM"] },
    { id: "R2", text: "A Delimiter setting in the export dialog (comma or semicolon)", match: ["delimiter"] },
    {
      id: "R3",
      text: "Default to semicolon for German and Austrian accounts",
      match: ["default", "semicolon"],
    },
    { id: "R4", text: "The invoices CSV export gets the same fix", match: ["invoices"] },
    { id: "R5", text: "A PHPUnit test that checks the first three bytes", match: ["PHPUnit"] },
  ],
  technologies: ["php", "laravel", "phpunit"],
  non_goals: [],
  not_work: [
    { text: "the garbled names of the actual behaviour", match: ["JÃ¼rgen"] },
    { text: "the support tickets", match: ["#4471"] },
    { text: "the environment", match: ["de-DE"] },
    { text: "the workaround in Excel", match: ["From Text"] },
  ],
  separate: [["R1", "R2"]],
  independent: [
    ["R1", "R2"],
    ["R2", "R5"],
  ],
  inspired_by:
    "https://github.com/mtotschnig/MyExpenses/issues/1432 (CSV export garbled in Excel without a BOM) and https://github.com/demos-europe/demosplan-core/pull/753 (BOM so Excel shows umlauts)",
};
