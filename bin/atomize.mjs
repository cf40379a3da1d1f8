#!/usr/bin/env node
// The `atomize` command line. The code is TypeScript in src/cli/; tsx (a runtime dependency) loads it,
// so a fresh clone needs no build.
import { register } from "tsx/esm/api";

register();
await import("../src/cli/atomize.ts");
