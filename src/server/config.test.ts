import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

describe("loadConfig", () => {
  it("runs on embedded defaults: port 8080, PGlite in ./.data, production, Google off", () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(8080);
    expect(c.DATA_DIR).toBe("./.data");
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.NODE_ENV).toBe("production");
    expect(c.googleEnabled).toBe(false);
    expect(c.cookieSecure).toBe(false);
    expect(c.publicOrigin).toBe("http://localhost:8080");
  });

  it("derives Secure cookies from an https PUBLIC_URL and parses ADMIN_EMAILS", () => {
    const c = loadConfig({ PUBLIC_URL: "https://atomize.example.com/", ADMIN_EMAILS: " A@x.com, b@y.org ," });
    expect(c.cookieSecure).toBe(true);
    expect(c.publicOrigin).toBe("https://atomize.example.com");
    expect(c.ADMIN_EMAILS).toEqual(["a@x.com", "b@y.org"]);
  });

  it("treats empty values as unset", () => {
    expect(loadConfig({ DATABASE_URL: "", PORT: "" }).PORT).toBe(8080);
  });

  it("names the bad variable in one line and never echoes a secret", () => {
    expect(() => loadConfig({ PORT: "99999" })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: "99999" })).toThrow(/^Invalid configuration: PORT: .*\(got "99999"\)$/);
    try {
      loadConfig({ DATABASE_URL: "mysql://user:hunter2@db/x" });
    } catch (e) {
      expect((e as Error).message).toMatch(/^Invalid configuration: DATABASE_URL: /);
      expect((e as Error).message).not.toContain("hunter2");
    }
    expect(() => loadConfig({ GOOGLE_ISSUER_URL: "http://accounts.example.com" })).toThrow(
      /GOOGLE_ISSUER_URL: must be https/,
    );
    expect(loadConfig({ GOOGLE_ISSUER_URL: "http://127.0.0.1:9999" }).GOOGLE_ISSUER_URL).toBe(
      "http://127.0.0.1:9999",
    );
  });

  it("looks for a local Ollama at 127.0.0.1:11434 unless OLLAMA_URL is set elsewhere or empty", () => {
    expect(loadConfig({}).ollamaUrl).toBe("http://127.0.0.1:11434");
    expect(loadConfig({}).OLLAMA_DETECT_TIMEOUT_MS).toBe(1500);
    expect(loadConfig({ OLLAMA_URL: "http://gpu-box:11434" }).ollamaUrl).toBe("http://gpu-box:11434");
    expect(loadConfig({ OLLAMA_URL: "" }).ollamaUrl).toBeNull();
    expect(() => loadConfig({ OLLAMA_URL: "ftp://x" })).toThrow(/^Invalid configuration: OLLAMA_URL: /);
  });
});
