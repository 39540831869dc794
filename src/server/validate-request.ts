/**
 * Shape checks of request bodies. Everything from the network is `unknown` until it passes here.
 */
import { ToolLimits, type PageToolSchema, type JsonSchema } from '../tools/types.js';
import {
  PROTOCOL_VERSION,
  type VoiceSessionRequest,
  type WaveMessage,
  type WaveRequest,
  type WaveToolCall,
} from '../transport/protocol.js';

/** Limits on a request's shape; the body size limit sits in the handler. */
export const RequestLimits = {
  maxMessages: 400,
  maxIdChars: 128,
  maxToolCallsPerMessage: 32,
} as const;

/** A 400 with a code and a message that names the offending field. */
export class RequestValidationError extends Error {
  override name = 'RequestValidationError';
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

const fail = (message: string, code = 'invalid_request'): never => {
  throw new RequestValidationError(code, message);
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function idString(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > RequestLimits.maxIdChars) {
    fail(`${field} must be a non-empty string of at most ${RequestLimits.maxIdChars} chars`);
  }
  return value as string;
}

function checkVersion(body: Record<string, unknown>): void {
  if (body.v !== PROTOCOL_VERSION) fail(`v must be ${PROTOCOL_VERSION}`, 'unsupported_version');
}

function checkContext(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') return fail('context must be a string or null');
  return value;
}

/** Checks one tool schema; missing `confirm`, `cost`, `tier3` take their defaults. */
export function parseToolSchema(value: unknown, at: string): PageToolSchema {
  if (!isRecord(value)) return fail(`${at} must be an object`);
  const { name, description, parameters, confirm, cost, tier3 } = value;
  if (typeof name !== 'string' || !ToolLimits.namePattern.test(name)) {
    fail(`${at}.name must match ^[a-z0-9_]{1,48}$`, 'invalid_tool');
  }
  if (description !== undefined && typeof description !== 'string') fail(`${at}.description must be a string`, 'invalid_tool');
  // load_tools indexes the whole deferred catalogue, so it may be longer than a page description.
  const maxDescription = name === 'load_tools' ? ToolLimits.maxTools * 300 : ToolLimits.maxDescriptionChars;
  if (typeof description === 'string' && description.length > maxDescription) {
    fail(`${at}.description exceeds ${maxDescription} chars`, 'invalid_tool');
  }
  const params = parameters === undefined ? { type: 'object', properties: {} } : parameters;
  if (!isRecord(params) || params.type !== 'object') fail(`${at}.parameters must be a JSON Schema with type "object"`, 'invalid_tool');
  if (JSON.stringify(params).length > ToolLimits.maxParametersBytes) {
    fail(`${at}.parameters exceeds ${ToolLimits.maxParametersBytes} bytes`, 'invalid_tool');
  }
  if (confirm !== undefined && typeof confirm !== 'boolean') fail(`${at}.confirm must be a boolean`, 'invalid_tool');
  if (tier3 !== undefined && typeof tier3 !== 'boolean') fail(`${at}.tier3 must be a boolean`, 'invalid_tool');
  if (cost !== undefined && (typeof cost !== 'number' || !Number.isFinite(cost) || cost < 0)) {
    fail(`${at}.cost must be a number ≥ 0`, 'invalid_tool');
  }
  return {
    name: name as string,
    description: (description as string | undefined) ?? '',
    parameters: params as JsonSchema,
    confirm: (confirm as boolean | undefined) ?? false,
    cost: (cost as number | undefined) ?? 0,
    tier3: (tier3 as boolean | undefined) ?? false,
  };
}

function parseTools(value: unknown): PageToolSchema[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return fail('tools must be an array');
  // +1: the synthetic load_tools rides beside a full catalogue's active set.
  if (value.length > ToolLimits.maxTools + 1) fail(`tools holds more than ${ToolLimits.maxTools} schemas`, 'invalid_tool');
  const tools = value.map((tool, i) => parseToolSchema(tool, `tools[${i}]`));
  const names = new Set<string>();
  for (const tool of tools) {
    if (names.has(tool.name)) fail(`tools has the name "${tool.name}" twice`, 'invalid_tool');
    names.add(tool.name);
  }
  return tools;
}

function parseToolCall(value: unknown, at: string): WaveToolCall {
  if (!isRecord(value)) return fail(`${at} must be an object`);
  const name = value.name;
  if (typeof name !== 'string' || !ToolLimits.namePattern.test(name)) fail(`${at}.name must match ^[a-z0-9_]{1,48}$`);
  if (!isRecord(value.arguments)) fail(`${at}.arguments must be an object`);
  return { id: idString(value.id, `${at}.id`), name: name as string, arguments: value.arguments as Record<string, unknown> };
}

function parseMessage(value: unknown, at: string): WaveMessage {
  if (!isRecord(value)) return fail(`${at} must be an object`);
  const { role, content } = value;
  if (typeof content !== 'string') fail(`${at}.content must be a string`);
  const text = content as string;
  if (role === 'user') return { role, content: text };
  if (role === 'assistant') {
    if (value.toolCalls === undefined) return { role, content: text };
    if (!Array.isArray(value.toolCalls) || value.toolCalls.length > RequestLimits.maxToolCallsPerMessage) {
      fail(`${at}.toolCalls must be an array of at most ${RequestLimits.maxToolCallsPerMessage} calls`);
    }
    const calls = (value.toolCalls as unknown[]).map((c, i) => parseToolCall(c, `${at}.toolCalls[${i}]`));
    return { role, content: text, toolCalls: calls };
  }
  if (role === 'tool') {
    const name = value.name;
    if (typeof name !== 'string' || !ToolLimits.namePattern.test(name)) fail(`${at}.name must match ^[a-z0-9_]{1,48}$`);
    return { role, toolCallId: idString(value.toolCallId, `${at}.toolCallId`), name: name as string, content: text };
  }
  return fail(`${at}.role must be "user", "assistant" or "tool"`);
}

/** The site id alone, so the handler can resolve the site (404) before judging the rest (400). */
export function peekSiteId(body: unknown): string {
  if (!isRecord(body)) return fail('the body must be a JSON object');
  return idString(body.siteId, 'siteId');
}

/**
 * Checks a chat step body.
 *
 * @example
 * const request = parseWaveRequest(JSON.parse(text)); // throws RequestValidationError
 */
export function parseWaveRequest(body: unknown): WaveRequest {
  if (!isRecord(body)) return fail('the body must be a JSON object');
  checkVersion(body);
  const siteId = idString(body.siteId, 'siteId');
  const conversationId = idString(body.conversationId, 'conversationId');
  if (!Array.isArray(body.messages) || body.messages.length === 0 || body.messages.length > RequestLimits.maxMessages) {
    fail(`messages must be a non-empty array of at most ${RequestLimits.maxMessages} messages`);
  }
  const messages = (body.messages as unknown[]).map((m, i) => parseMessage(m, `messages[${i}]`));
  const request: WaveRequest = {
    v: PROTOCOL_VERSION,
    siteId,
    conversationId,
    messages,
    tools: parseTools(body.tools),
    context: checkContext(body.context),
  };
  if (body.locale !== undefined) {
    if (typeof body.locale !== 'string' || !/^[A-Za-z0-9-]{1,35}$/.test(body.locale)) fail('locale must be a language tag');
    request.locale = body.locale as string;
  }
  return request;
}

/** Checks a voice-session body. */
export function parseVoiceSessionRequest(body: unknown): VoiceSessionRequest {
  if (!isRecord(body)) return fail('the body must be a JSON object');
  checkVersion(body);
  return {
    v: PROTOCOL_VERSION,
    siteId: idString(body.siteId, 'siteId'),
    conversationId: idString(body.conversationId, 'conversationId'),
    tools: parseTools(body.tools),
    context: checkContext(body.context),
  };
}
