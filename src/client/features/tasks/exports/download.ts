/** Saves text as a file: a Blob behind a temporary <a download> (the JSON export runs in the browser). */
export function downloadText(fileName: string, content: string, mime: string): void {
  // A byte order mark lets spreadsheet programs read a UTF-8 CSV as UTF-8.
  const parts = mime.startsWith("text/csv") ? ["\uFEFF", content] : [content];
  const url = URL.createObjectURL(new Blob(parts, { type: mime }));
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  a.rel = "noopener";
  a.style.display = "none";
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Some browsers read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
