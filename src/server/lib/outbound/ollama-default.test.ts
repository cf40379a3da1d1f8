import { describe, expect, it } from "vitest";
import { loadConfig } from "../../config";
import { literalRefusal } from "./fetch";

/**
 * Issue 39: the default OLLAMA_URL (http://127.0.0.1:11434) is no address an operator chose. Users' own
 * providers reach a local Ollama only when OLLAMA_URL is set; an admin may use the default for the
 * instance's model (loopback is open to admins), and the server probes it for Settings.
 */
describe("the default Ollama address", () => {
  const base = "http://127.0.0.1:11434/v1";

  it("is not opened to users' own providers unless the operator set OLLAMA_URL", () => {
    expect(literalRefusal(loadConfig({}), "user", base)).toMatch(/OUTBOUND_ALLOW/);
    expect(literalRefusal(loadConfig({}), "user", "http://127.0.0.1:11434/anything/")).toMatch(
      /OUTBOUND_ALLOW/,
    );
    expect(literalRefusal(loadConfig({ OLLAMA_URL: "http://127.0.0.1:11434" }), "user", base)).toBeNull();
  });

  it("stays usable by an admin for the instance's model", () => {
    expect(literalRefusal(loadConfig({}), "admin", base)).toBeNull();
  });

  it("says whether the operator set it", () => {
    expect(loadConfig({}).ollamaUrlSet).toBe(false);
    expect(loadConfig({ OLLAMA_URL: "" }).ollamaUrlSet).toBe(false);
    expect(loadConfig({ OLLAMA_URL: "http://127.0.0.1:11500" }).ollamaUrlSet).toBe(true);
  });
});
