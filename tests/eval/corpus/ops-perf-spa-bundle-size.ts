import type { EvalCase } from "../case";

export const opsPerfSpaBundleSize: EvalCase = {
  id: "ops-perf-spa-bundle-size",
  kind: "performance issue (slow single-page app load)",
  work_kind: "performance",
  description: `Dashboard is slow to load: 4.1 MB of JavaScript before anything renders

Our customer dashboard has got slow enough that sales hears about it on calls. Measured on the production build with the browser's mobile throttling (Slow 4G, 4x CPU slowdown):
- First Contentful Paint: 4.8 s
- Time to Interactive: 9.3 s
- main.js: 4.1 MB minified, 1.2 MB gzipped, a single chunk

Breakdown from webpack-bundle-analyzer:
- moment.js with all locales: 540 KB (we use 4 locales)
- lodash, full build: 530 KB (we use ~15 functions)
- the PDF viewer for invoices, loaded on every page: 900 KB
- the charting library, only used on the Reports tab: 700 KB
- our own code: ~1 MB

What we'd like done:
- Split the bundle by route (React.lazy + Suspense), so the PDF viewer and the charts only load on the pages that use them
- Ship only the 4 moment.js locales we need (or move to date-fns)
- Import lodash functions one by one instead of the whole library
- Serve static assets with long-lived Cache-Control headers and content-hashed file names; today index.html and main.js are both served with no-cache, so every visit downloads everything again
- Add a bundle size budget to CI so this doesn't creep back

Goal: under 300 KB gzipped for the initial load, and Time to Interactive under 4 s on the same throttled profile.

React 17.0.2, webpack 4.46, served from S3 behind CloudFront.`,
  requirements: [
    { id: "R1", text: "Split the bundle by route", match: ["split"] },
    { id: "R2", text: "Load the PDF viewer only on the pages that use it", match: ["PDF viewer"] },
    { id: "R3", text: "Load the charts only on the Reports tab", match: ["chart"] },
    { id: "R4", text: "Ship only the 4 moment.js locales needed", match: ["locales"] },
    { id: "R5", text: "Import lodash functions one by one", match: ["lodash"] },
    { id: "R6", text: "Long-lived Cache-Control headers for static assets", match: ["Cache-Control"] },
    { id: "R7", text: "Content-hashed file names", match: ["hash"] },
    { id: "R8", text: "A bundle size budget in CI", match: ["budget"] },
    {
      id: "R9",
      text: "Under 300 KB gzipped initial load and Time to Interactive under 4 s",
      match: ["300 KB"],
    },
  ],
  technologies: ["javascript", "react", "webpack", "moment", "lodash", "date-fns", "s3", "cloudfront"],
  non_goals: [],
  not_work: [
    { text: "the measurements", match: ["First Contentful Paint"] },
    { text: "the throttling profile", match: ["Slow 4G"] },
    { text: "the bundle breakdown line for our own code", match: ["own code"] },
  ],
  separate: [["R2", "R3"]],
  independent: [
    ["R4", "R5"],
    ["R6", "R8"],
  ],
  inspired_by:
    "https://github.com/lbryio/lbry-desktop/issues/4022 (3 MB bundle, code splitting), https://github.com/popcodeorg/popcode/issues/348 (lodash, moment, vendor split) and https://github.com/LN-Zap/zap-desktop/pull/473 (moment locales)",
};
