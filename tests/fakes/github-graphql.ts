import { buildSchema, type ExecutionResult, GraphQLError, graphql } from "graphql";

/**
 * The part of GitHub's GraphQL API (POST /graphql) Atomize reads, for the GitHub stand-in (github.ts):
 * a repository's pull requests and the issues each will close (`closingIssuesReferences`).
 *
 * The schema below is a subset of GitHub's public schema, with its names, argument names and types
 * (docs.github.com/graphql/reference: objects Repository, PullRequest, Issue, PageInfo; input IssueOrder;
 * enums PullRequestState, IssueOrderField, OrderDirection). Every query is parsed and validated against it by
 * graphql-js, the reference implementation, so a field, argument or type GitHub does not have is refused as
 * GitHub refuses it: HTTP 200 with `errors` and no `data`. Connection rules as GitHub states them ("Node
 * limit", docs.github.com/graphql/overview/rate-limits-and-node-limits): `first` or `last` is required on
 * every connection and may not pass 100 ("Requesting 101 records on the `pullRequests` connection exceeds
 * the `first` limit of 100 records."; "You must provide a `first` or `last` value to properly paginate the
 * `pullRequests` connection."). A repository that is not there or not visible is `null` with a
 * NOT_FOUND error ("Could not resolve to a Repository with the name 'o/r'."); a fine-grained token without
 * the pull-requests permission on a private repository gets a FORBIDDEN error ("Resource not accessible by
 * personal access token").
 */

const SDL = /* GraphQL */ `
  scalar URI
  scalar DateTime
  enum PullRequestState { OPEN CLOSED MERGED }
  enum IssueOrderField { CREATED_AT UPDATED_AT COMMENTS }
  enum OrderDirection { ASC DESC }
  input IssueOrder { field: IssueOrderField!, direction: OrderDirection! }
  type PageInfo { hasNextPage: Boolean!, hasPreviousPage: Boolean!, endCursor: String, startCursor: String }
  type Ref { name: String! }
  type Repository {
    name: String!
    nameWithOwner: String!
    defaultBranchRef: Ref
    pullRequests(
      first: Int, after: String, last: Int, before: String, states: [PullRequestState!],
      baseRefName: String, headRefName: String, labels: [String!], orderBy: IssueOrder
    ): PullRequestConnection!
  }
  type PullRequestConnection { nodes: [PullRequest], pageInfo: PageInfo!, totalCount: Int! }
  type PullRequest {
    number: Int!
    title: String!
    body: String!
    url: URI!
    state: PullRequestState!
    merged: Boolean!
    updatedAt: DateTime!
    baseRefName: String!
    closingIssuesReferences(
      first: Int, after: String, last: Int, before: String, userLinkedOnly: Boolean, orderBy: IssueOrder
    ): IssueConnection
  }
  type IssueConnection { nodes: [Issue], pageInfo: PageInfo!, totalCount: Int! }
  type Issue { number: Int!, title: String!, url: URI!, repository: Repository! }
  type RateLimit { cost: Int!, limit: Int!, remaining: Int!, resetAt: DateTime! }
  type Query {
    repository(owner: String!, name: String!, followRenames: Boolean = true): Repository
    rateLimit(dryRun: Boolean = false): RateLimit
  }
`;

const schema = buildSchema(SDL);

/** What the stand-in knows of a pull request, for the schema's fields. */
export type GraphPull = {
  number: number;
  title: string;
  body: string | null;
  url: string;
  state: "open" | "closed";
  merged: boolean;
  updatedAt: string;
  createdAt: string;
  base: string;
  /** The issues it will close: keyword links into the default branch and links made by hand. */
  closes: () => Array<{ number: number; title: string; url: string; repository: GraphRepo; byHand: boolean }>;
};
export type GraphRepo = {
  owner: string;
  name: string;
  defaultBranch: string;
  pulls: () => GraphPull[];
  /** Refused to the caller's token (a fine-grained token without the pull-requests permission). */
  pullsForbidden: boolean;
};

class TypedError extends GraphQLError {
  constructor(message: string, type: string) {
    super(message, { extensions: { type } });
  }
}

function connection<T>(name: string, all: T[], args: { first?: number; after?: string; last?: number }) {
  const wanted = args.first ?? args.last;
  if (wanted === undefined || wanted === null)
    throw new GraphQLError(
      `You must provide a \`first\` or \`last\` value to properly paginate the \`${name}\` connection.`,
    );
  if (wanted > 100)
    throw new GraphQLError(
      `Requesting ${wanted} records on the \`${name}\` connection exceeds the \`${args.first !== undefined ? "first" : "last"}\` limit of 100 records.`,
    );
  const from = args.after
    ? Number(
        Buffer.from(args.after, "base64")
          .toString("utf8")
          .replace(/^cursor:v2:/, ""),
      ) + 1
    : 0;
  if (!Number.isInteger(from) || from < 0)
    throw new GraphQLError(`\`${args.after}\` does not appear to be a valid cursor.`);
  const nodes =
    args.first !== undefined ? all.slice(from, from + wanted) : all.slice(Math.max(0, all.length - wanted));
  const start = args.first !== undefined ? from : Math.max(0, all.length - wanted);
  const cursor = (i: number) => Buffer.from(`cursor:v2:${i}`).toString("base64");
  return {
    nodes,
    totalCount: all.length,
    pageInfo: {
      hasNextPage: start + nodes.length < all.length,
      hasPreviousPage: start > 0,
      startCursor: nodes.length ? cursor(start) : null,
      endCursor: nodes.length ? cursor(start + nodes.length - 1) : null,
    },
  };
}

type Order = { field: "CREATED_AT" | "UPDATED_AT" | "COMMENTS"; direction: "ASC" | "DESC" };

function repositoryNode(r: GraphRepo): Record<string, unknown> {
  return {
    name: r.name,
    nameWithOwner: `${r.owner}/${r.name}`,
    defaultBranchRef: { name: r.defaultBranch },
    pullRequests(args: {
      first?: number;
      after?: string;
      last?: number;
      states?: Array<"OPEN" | "CLOSED" | "MERGED">;
      baseRefName?: string;
      orderBy?: Order;
    }) {
      if (r.pullsForbidden)
        throw new TypedError("Resource not accessible by personal access token", "FORBIDDEN");
      const stateOf = (p: GraphPull) => (p.merged ? "MERGED" : p.state === "open" ? "OPEN" : "CLOSED");
      const order = args.orderBy ?? { field: "CREATED_AT", direction: "ASC" };
      const key = (p: GraphPull) =>
        `${order.field === "UPDATED_AT" ? p.updatedAt : p.createdAt}|${String(p.number).padStart(9, "0")}`;
      const list = r
        .pulls()
        .filter(
          (p) =>
            (!args.states || args.states.includes(stateOf(p))) &&
            (!args.baseRefName || p.base === args.baseRefName),
        )
        .sort((a, b) => (order.direction === "ASC" ? 1 : -1) * key(a).localeCompare(key(b)));
      return connection(
        "pullRequests",
        list.map((p) => ({
          number: p.number,
          title: p.title,
          body: p.body ?? "",
          url: p.url,
          state: stateOf(p),
          merged: p.merged,
          updatedAt: p.updatedAt,
          baseRefName: p.base,
          closingIssuesReferences(a: {
            first?: number;
            after?: string;
            last?: number;
            userLinkedOnly?: boolean;
          }) {
            const closes = p.closes().filter((c) => !a.userLinkedOnly || c.byHand);
            return connection(
              "closingIssuesReferences",
              closes.map((c) => ({
                number: c.number,
                title: c.title,
                url: c.url,
                repository: repositoryNode(c.repository),
              })),
              a,
            );
          },
        })),
        args,
      );
    },
  };
}

/** Runs a GraphQL request body against the stand-in's repositories; the HTTP 200 answer's body. */
export async function runGraphql(
  body: unknown,
  findRepo: (owner: string, name: string) => GraphRepo | null,
): Promise<ExecutionResult | { errors: Array<{ message: string }> }> {
  const req = (typeof body === "object" && body !== null ? body : {}) as {
    query?: unknown;
    variables?: unknown;
  };
  if (typeof req.query !== "string" || req.query.trim() === "")
    return { errors: [{ message: "A query attribute must be specified and must be a string." }] };
  const variables =
    typeof req.variables === "object" && req.variables !== null
      ? (req.variables as Record<string, unknown>)
      : {};
  const result = await graphql({
    schema,
    source: req.query,
    variableValues: variables,
    rootValue: {
      repository({ owner, name }: { owner: string; name: string }) {
        const r = findRepo(owner, name);
        if (!r)
          throw new TypedError(
            `Could not resolve to a Repository with the name '${owner}/${name}'.`,
            "NOT_FOUND",
          );
        return repositoryNode(r);
      },
      rateLimit: () => ({
        cost: 1,
        limit: 5000,
        remaining: 4999,
        resetAt: new Date(Date.now() + 3_600_000).toISOString(),
      }),
    },
  });
  // GitHub's error objects carry their type at the top level (NOT_FOUND, FORBIDDEN).
  return {
    ...result,
    ...(result.errors
      ? {
          errors: result.errors.map((e) => ({
            message: e.message,
            ...(e.locations ? { locations: e.locations } : {}),
            ...(e.path ? { path: e.path } : {}),
            ...(typeof e.extensions?.type === "string" ? { type: e.extensions.type } : {}),
          })),
        }
      : {}),
  } as ExecutionResult;
}
