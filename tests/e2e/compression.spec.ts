import type { Response } from "@playwright/test";
import { expect, test } from "./fixtures";

// The "compression present" check of CI (issue 15): what the browser itself receives, not what a test
// client asks for. Sizes only, never timings.

type Loaded = { url: string; type: string; encoding: string | undefined; vary: string; bytes: number };

async function describeResponse(response: Response): Promise<Loaded> {
  const headers = await response.allHeaders();
  return {
    url: new URL(response.url()).pathname,
    type: response.request().resourceType(),
    encoding: headers["content-encoding"],
    vary: headers.vary ?? "",
    // Decoded: what was compressed, or would have been.
    bytes: (await response.body()).length,
  };
}

for (const path of ["/", "/blog"]) {
  test(`${path}: the page, its scripts and its styles arrive compressed with brotli`, async ({
    page,
    baseURL,
  }) => {
    const responses: Response[] = [];
    page.on("response", (r) => {
      const type = r.request().resourceType();
      if (r.url().startsWith(baseURL!) && ["document", "script", "stylesheet"].includes(type))
        responses.push(r);
    });
    await page.goto(path);
    await page.waitForLoadState("load");
    const loaded = await Promise.all(responses.map(describeResponse));

    const byType = (type: string) => loaded.filter((r) => r.type === type);
    expect(byType("document")).toHaveLength(1);
    expect(byType("script").length).toBeGreaterThan(0);
    expect(byType("stylesheet").length).toBeGreaterThan(0);
    // Everything over 1 KB is brotli (Chromium offers it first); smaller files are not worth it.
    const large = loaded.filter((r) => r.bytes >= 1024);
    expect(large.map((r) => r.type)).toEqual(expect.arrayContaining(["document", "script", "stylesheet"]));
    for (const r of large) {
      expect(r.encoding, `${r.url} (${r.bytes} bytes)`).toBe("br");
      expect(r.vary, r.url).toMatch(/accept-encoding/i);
    }
  });
}
