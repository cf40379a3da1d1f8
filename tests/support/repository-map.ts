import type { RepositoryMap } from "../../src/shared/schemas/repository-map";

/** A repository map with nothing in it but what the test gives (issue 42's maps, built by hand). */
export function mapOf(fields: Partial<RepositoryMap> = {}): RepositoryMap {
  return {
    version: 1,
    source: "local",
    name: "repository",
    commit: null,
    truncated: false,
    files: [],
    manifests: [],
    readme: null,
    symbols: [],
    tests: [],
    codeowners: [],
    ...fields,
  };
}
