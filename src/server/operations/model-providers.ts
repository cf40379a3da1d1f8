import {
  connectionTestResult,
  instanceModelProviderView,
  modelProviderInput,
  modelProviderView,
  ollamaDetection,
  plannerForMe,
} from "../../shared/schemas/model-providers";
import { detectOllama } from "../services/model-providers/detect-ollama";
import { getInstanceProvider } from "../services/model-providers/get-instance-provider";
import { getOwnProvider } from "../services/model-providers/get-own-provider";
import { getPlannerForMe } from "../services/model-providers/get-planner-for-me";
import { ollamaModels } from "../services/model-providers/ollama-models";
import { removeInstanceProvider } from "../services/model-providers/remove-instance-provider";
import { removeOwnProvider } from "../services/model-providers/remove-own-provider";
import { saveInstanceProvider } from "../services/model-providers/save-instance-provider";
import { saveOwnProvider } from "../services/model-providers/save-own-provider";
import { testInstanceProvider } from "../services/model-providers/test-instance-provider";
import { testOwnProvider } from "../services/model-providers/test-own-provider";
import { mutation, query } from "./define";

/**
 * Settings -> AI model: the caller's own provider, the instance's (admins), a local Ollama, and who
 * plans. The tRPC `modelProviders` router and its /api routes. Keys are secrets: saving, removing and
 * testing (which sends the saved key) take a signed-in session, never an API token (decision 012).
 */
export const modelProviderOperations = {
  mine: query({
    access: "user",
    summary: "Your own model provider (the key is never returned, at most its last 4 characters).",
    output: modelProviderView,
    run: ({ deps, user }) => getOwnProvider(deps, user),
    rest: [{ method: "get", path: "/model-provider" }],
  }),
  saveMine: mutation({
    access: "user",
    sessionOnly: true,
    summary: "Saves your own model provider.",
    input: modelProviderInput,
    output: modelProviderView,
    run: ({ deps, user }, input) => saveOwnProvider(deps, user, input),
    rest: [{ method: "put", path: "/model-provider", from: "body" }],
  }),
  removeMine: mutation({
    access: "user",
    sessionOnly: true,
    summary: "Removes your own model provider.",
    output: modelProviderView,
    run: ({ deps, user }) => removeOwnProvider(deps, user),
    rest: [{ method: "delete", path: "/model-provider" }],
  }),
  testMine: mutation({
    access: "user",
    sessionOnly: true,
    summary: "Makes one real call with these settings and reports the provider's answer or error.",
    input: modelProviderInput,
    output: connectionTestResult,
    run: ({ deps, user }, input) => testOwnProvider(deps, user, input),
    rest: [{ method: "post", path: "/model-provider/test", from: "body" }],
  }),
  instance: query({
    access: "admin",
    summary: "The instance's model provider.",
    output: instanceModelProviderView,
    run: ({ deps, user }) => getInstanceProvider(deps, user),
    rest: [{ method: "get", path: "/admin/model-provider" }],
  }),
  saveInstance: mutation({
    access: "admin",
    sessionOnly: true,
    summary: "Saves the instance's model provider (refused while the environment sets one).",
    input: modelProviderInput,
    output: instanceModelProviderView,
    run: ({ deps, user }, input) => saveInstanceProvider(deps, user, input),
    rest: [{ method: "put", path: "/admin/model-provider", from: "body" }],
  }),
  removeInstance: mutation({
    access: "admin",
    sessionOnly: true,
    summary: "Removes the instance's model provider.",
    output: instanceModelProviderView,
    run: ({ deps, user }) => removeInstanceProvider(deps, user),
    rest: [{ method: "delete", path: "/admin/model-provider" }],
  }),
  testInstance: mutation({
    access: "admin",
    sessionOnly: true,
    summary: "Tests settings for the instance's model provider with one real call.",
    input: modelProviderInput,
    output: connectionTestResult,
    run: ({ deps, user }, input) => testInstanceProvider(deps, user, input),
    rest: [{ method: "post", path: "/admin/model-provider/test", from: "body" }],
  }),
  plannerForMe: query({
    access: "user",
    summary: "Which planner a task created now would run with: name, model and where its settings come from.",
    output: plannerForMe,
    run: ({ deps, user }) => getPlannerForMe(deps, user),
    rest: [{ method: "get", path: "/planner" }],
  }),
  ollama: query({
    access: "user",
    summary: "The models of the local Ollama, as last detected.",
    output: ollamaDetection,
    run: ({ deps, user }) => ollamaModels(deps, user),
    rest: [{ method: "get", path: "/ollama/models" }],
  }),
  detectOllama: mutation({
    access: "user",
    summary: "Looks for a local Ollama again.",
    output: ollamaDetection,
    run: ({ deps, user }) => detectOllama(deps, user),
    rest: [{ method: "post", path: "/ollama/detect" }],
  }),
};
