/**
 * Text others wrote (titles, descriptions, criteria, the server's messages) made safe to print on a
 * terminal. A terminal obeys escape sequences wherever they come from: `ESC ] 0 ; … BEL` retitles the
 * window, `ESC [ 2 J` clears the screen, OSC 52 writes the clipboard, and some terminals answer queries
 * by typing into the shell. So whole sequences go (not only their ESC, which would leave `[2J` behind),
 * then every other C0/C1 control but the line feed and the tab that lay the text out. The carriage
 * return goes too: on its own it moves the cursor back and lets a line print over what came before it.
 */

/* biome-ignore-start lint/suspicious/noControlCharactersInRegex: control characters are what these match */

/**
 * Strings a terminal swallows up to their terminator (BEL, ST as `ESC \`, or the 8-bit ST): OSC, DCS,
 * SOS, PM and APC, with their 7-bit (`ESC ]`, `ESC P`, `ESC X`, `ESC ^`, `ESC _`) and 8-bit introducers.
 * One is taken to end on its own line: otherwise a title's open OSC and a later one's BEL would remove
 * every line between them, ids included. One without a terminator loses only its introducer below, and
 * the rest is then plain text.
 */
const CONTROL_STRING = /(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x9c\x1b\n]*(?:\x07|\x9c|\x1b\\)/g;

/** CSI (`ESC [` or 8-bit 0x9B): parameter and intermediate bytes, then one final byte. */
const CSI = /(?:\x1b\[|\x9b)[\x20-\x3f]*[\x40-\x7e]?/g;

/** Any other escape: ESC, intermediate bytes, one final byte (`ESC c` resets the terminal). */
const ESCAPE = /\x1b[\x20-\x2f]*[\x30-\x7e]?/g;

/** What is left: C0 but the tab and line feed, DEL, and C1. */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/* biome-ignore-end lint/suspicious/noControlCharactersInRegex: see above */

/** `text` without escape sequences and control characters, keeping line feeds and tabs. */
export function terminalText(text: string): string {
  return text.replace(CONTROL_STRING, "").replace(CSI, "").replace(ESCAPE, "").replace(CONTROL, "");
}
