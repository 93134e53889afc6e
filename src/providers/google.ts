/**
 * Google Gemini `streamGenerateContent?alt=sse`. Parts arrive whole: text,
 * thought summaries (`thought: true`), function calls with object args and
 * no ids (ids are made here). `thoughtSignature`s ride on parts and must be
 * echoed back. Usage repeats on every chunk, so only the last one counts.
 */
import type { ImageContent, TextContent } from "../core/messages.ts";
import { BlockIndexer } from "./blocks.ts";
import { type UsageUpdate, billedOutput, newToolCallId, prepareMessages, sameModel, toolResultText, userBlocks } from "./convert.ts";
import { ProviderFailure, streamFailure } from "./errors.ts";
import { type HttpRequest, joinUrl } from "./http.ts";
import { type PartialArg, applyPartialArg } from "./partial-args.ts";
import { runProvider } from "./run.ts";
import { parseSse } from "./sse.ts";
import { clampThinking, thinkingBudget } from "./thinking.ts";
import type { Provider, ProviderEvent, ProviderRequest } from "./types.ts";

export const google: Provider = {
  api: "google",
  stream: (request, signal) => runProvider(() => buildGoogleRequest(request), decodeGoogle, request, signal),
};

type Part = Record<string, unknown>;
interface Content {
  role: "user" | "model";
  parts: Part[];
}

export function buildGoogleRequest(request: ProviderRequest): HttpRequest {
  const contents: Content[] = [];
  // Gemini wants turns to alternate, and a function response right after its call
  const add = (role: Content["role"], parts: Part[]) => {
    if (parts.length === 0) return;
    const last = contents.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };
  for (const message of prepareMessages(request.messages, request.model)) {
    if (message.role === "user") {
      add("user", googleParts(userBlocks(message)));
    } else if (message.role === "assistant") {
      const same = sameModel(message, request.model);
      const parts: Part[] = [];
      for (const block of message.content) {
        if (block.type === "thinking") {
          if (same && block.thinking.length > 0) parts.push(signed({ text: block.thinking, thought: true }, block.thinkingSignature));
        } else if (block.type === "text") {
          if (block.text.length > 0) parts.push(signed({ text: block.text }, same ? block.textSignature : undefined));
        } else {
          parts.push(signed({ functionCall: { name: block.name, args: block.arguments } }, same ? block.thoughtSignature : undefined));
        }
      }
      add("model", parts);
    } else {
      const text = toolResultText(message);
      const response = message.isError ? { error: text } : { output: text };
      const imageParts = googleParts(message.content.filter((c) => c.type === "image"));
      add("user", [{ functionResponse: { name: message.toolName, response } }, ...imageParts]);
    }
  }
  const generationConfig: Record<string, unknown> = { maxOutputTokens: request.model.maxTokens };
  const budget = thinkingBudget(clampThinking(request.thinkingLevel, request.model), request.model.maxTokens);
  if (budget !== undefined) generationConfig.thinkingConfig = { includeThoughts: true, thinkingBudget: budget };
  const body: Record<string, unknown> = { contents, generationConfig };
  if (request.systemPrompt) body.systemInstruction = { parts: [{ text: request.systemPrompt }] };
  if (request.tools.length > 0) {
    body.tools = [
      {
        functionDeclarations: request.tools.map((t) => ({ name: t.name, description: t.description, parametersJsonSchema: t.parameters })),
      },
    ];
  }
  const headers: Record<string, string> = {};
  if (request.auth.apiKey) headers["x-goog-api-key"] = request.auth.apiKey;
  const path = `models/${encodeURIComponent(request.model.id)}:streamGenerateContent?alt=sse`;
  return { url: joinUrl(request.model.baseUrl, path), headers: { ...headers, ...request.auth.headers }, body };
}

function googleParts(content: (TextContent | ImageContent)[]): Part[] {
  return content.flatMap((c): Part[] => {
    if (c.type === "image") return [{ inlineData: { mimeType: c.mimeType, data: c.data } }];
    return c.text.length > 0 ? [{ text: c.text }] : [];
  });
}

function signed(part: Part, signature: string | undefined): Part {
  return signature ? { ...part, thoughtSignature: signature } : part;
}

interface GooglePart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: { id?: string; name?: string; args?: Record<string, unknown>; partialArgs?: PartialArg[]; willContinue?: boolean };
}

interface GoogleChunk {
  candidates?: { content?: { parts?: GooglePart[] }; finishReason?: string }[];
  usageMetadata?: {
    promptTokenCount?: number;
    candidatesTokenCount?: number;
    thoughtsTokenCount?: number;
    toolUsePromptTokenCount?: number;
    cachedContentTokenCount?: number;
    totalTokenCount?: number;
  };
  promptFeedback?: { blockReason?: string };
  error?: unknown;
}

function argsEvent(index: number, args: Record<string, unknown>, signature: string | undefined): ProviderEvent {
  return { type: "toolcall_args", index, arguments: args, ...(signature ? { thoughtSignature: signature } : {}) };
}

export async function* decodeGoogle(body: ReadableStream<Uint8Array>): AsyncGenerator<ProviderEvent> {
  const blocks = new BlockIndexer();
  let toolUse = false;
  let finish: string | undefined;
  let usage: UsageUpdate | undefined;
  // a call whose arguments stream in later parts (`willContinue`), closed by a part without a name
  let open: { index: number; args: Record<string, unknown>; signature?: string } | undefined;
  for await (const sse of parseSse(body)) {
    const chunk = JSON.parse(sse.data) as GoogleChunk;
    if (chunk.error !== undefined) throw streamFailure(chunk);
    if (chunk.promptFeedback?.blockReason) {
      throw new ProviderFailure({ message: `Gemini blocked the prompt: ${chunk.promptFeedback.blockReason}`, retryable: false });
    }
    if (chunk.usageMetadata) usage = googleUsage(chunk.usageMetadata);
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) {
      const call = part.functionCall;
      if (call && open && call.name === undefined) {
        for (const piece of call.partialArgs ?? []) applyPartialArg(open.args, piece);
        if (!call.willContinue) {
          yield argsEvent(open.index, open.args, open.signature);
          open = undefined;
        }
        continue;
      }
      if (call) {
        toolUse = true;
        const index = blocks.standalone();
        yield { type: "toolcall_start", index, id: call.id || newToolCallId(), name: call.name ?? "" };
        const args = call.args ?? {};
        for (const piece of call.partialArgs ?? []) applyPartialArg(args, piece);
        if (call.willContinue) {
          open = { index, args, signature: part.thoughtSignature };
          continue;
        }
        yield argsEvent(index, args, part.thoughtSignature);
        continue;
      }
      const kind = part.thought ? "thinking" : "text";
      if (!part.text && !part.thoughtSignature) continue;
      const index = blocks.block(kind);
      if (part.text) yield kind === "thinking" ? { type: "thinking_delta", index, delta: part.text } : { type: "text_delta", index, delta: part.text };
      if (part.thoughtSignature) {
        yield kind === "thinking" ? { type: "thinking_signature", index, signature: part.thoughtSignature } : { type: "text_signature", index, signature: part.thoughtSignature };
      }
    }
    if (candidate?.finishReason) finish = candidate.finishReason;
  }
  if (finish === undefined) return;
  if (open) yield argsEvent(open.index, open.args, open.signature);
  if (usage) yield { type: "usage", usage };
  if (finish !== "STOP" && finish !== "MAX_TOKENS") {
    throw new ProviderFailure({ message: `Gemini stopped the response: ${finish}`, retryable: false });
  }
  yield { type: "stop", reason: finish === "MAX_TOKENS" ? "length" : toolUse ? "toolUse" : "stop" };
}

function googleUsage(meta: NonNullable<GoogleChunk["usageMetadata"]>): UsageUpdate {
  const prompt = (meta.promptTokenCount ?? 0) + (meta.toolUsePromptTokenCount ?? 0);
  const cached = meta.cachedContentTokenCount ?? 0;
  const output = (meta.candidatesTokenCount ?? 0) + (meta.thoughtsTokenCount ?? 0);
  return { input: prompt - cached, output: billedOutput(output, prompt, meta.totalTokenCount), cacheRead: cached };
}
