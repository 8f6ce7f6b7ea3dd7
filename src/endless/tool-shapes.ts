/**
 * The output shapes of the tools Endless Mode compresses, as Claude Code hands them to a
 * PostToolUse hook and writes them into `toolUseResult` (see the shared transcript README).
 * `extractToolText` reads the text a tool produced; `rebuildToolResponse` puts a replacement text
 * back into the very same shape (every other field kept), because Claude Code ignores an
 * `updatedToolOutput` that does not match the tool's output shape. Pure.
 */

import { isObject } from '../core/is-object.js';

type Json = Record<string, unknown>;

export type ToolKind = 'bash' | 'read' | 'grep' | 'glob' | 'webfetch' | 'websearch' | 'task' | 'taskoutput' | 'mcp';

interface Shape {
  /** The tool's text, or null when the value is not this tool's known shape. */
  extract(response: unknown): string | null;
  /** The same value with its text replaced; only called on values `extract` accepted. */
  rebuild(response: unknown, text: string): unknown;
}

const TOOL_KINDS: Readonly<Record<string, ToolKind>> = {
  Bash: 'bash',
  // Factory droid's shell tool; its output comes as a plain string.
  Execute: 'bash',
  Read: 'read',
  Grep: 'grep',
  Glob: 'glob',
  WebFetch: 'webfetch',
  WebSearch: 'websearch',
  Task: 'task',
  Agent: 'task',
  TaskOutput: 'taskoutput',
  // Gemini CLI's built-in tools (their output reaches a hook as { llmContent, returnDisplay }).
  run_shell_command: 'bash',
  read_file: 'read',
  grep_search: 'grep',
  glob: 'glob',
  web_fetch: 'webfetch',
  google_web_search: 'websearch',
};

export function toolKind(toolName: string): ToolKind | null {
  if (toolName.startsWith('mcp__') || toolName.startsWith('mcp_')) return 'mcp';
  // Own keys only: a tool named `constructor` or `toString` must not pick up Object.prototype members.
  return Object.hasOwn(TOOL_KINDS, toolName) ? TOOL_KINDS[toolName]! : null;
}

export function extractToolText(toolName: string, response: unknown): string | null {
  const kind = toolKind(toolName);
  return kind === null ? null : SHAPES[kind].extract(response);
}

export function rebuildToolResponse(toolName: string, response: unknown, text: string): unknown {
  const kind = toolKind(toolName);
  if (kind === null || SHAPES[kind].extract(response) === null) return text;
  return SHAPES[kind].rebuild(response, text);
}

/** True when the value is the plain-object form of the tool's output, not an error string. */
export function isStructuredResponse(response: unknown): boolean {
  return isObject(response) || Array.isArray(response);
}

const lineCount = (text: string): number => (text === '' ? 0 : text.split('\n').length);

/** A plain string stands for itself (error results in transcripts, some MCP servers). */
function withString(shape: Shape): Shape {
  return {
    extract: (response) => (typeof response === 'string' ? response : shape.extract(response)),
    rebuild: (response, text) => (typeof response === 'string' ? text : shape.rebuild(response, text)),
  };
}

const bash: Shape = withString({
  extract(response) {
    if (!isObject(response) || typeof response.stdout !== 'string' || response.isImage === true) return null;
    const stderr = typeof response.stderr === 'string' ? response.stderr : '';
    if (stderr.trim() === '') return response.stdout;
    return response.stdout === '' ? `[stderr]\n${stderr}` : `${response.stdout}\n[stderr]\n${stderr}`;
  },
  rebuild: (response, text) => ({ ...(response as Json), stdout: text, stderr: '' }),
});

const read: Shape = withString({
  extract(response) {
    if (!isObject(response) || response.type !== 'text' || !isObject(response.file)) return null;
    return typeof response.file.content === 'string' ? response.file.content : null;
  },
  rebuild(response, text) {
    const value = response as Json;
    return { ...value, file: { ...(value.file as Json), content: text, numLines: lineCount(text) } };
  },
});

const grep: Shape = {
  extract(response) {
    if (!isObject(response) || typeof response.mode !== 'string') return null;
    if (typeof response.content === 'string') return response.content;
    return stringArray(response.filenames)?.join('\n') ?? null;
  },
  rebuild(response, text) {
    const value = response as Json;
    if (typeof value.content === 'string') return { ...value, content: text, numLines: lineCount(text) };
    return { ...value, filenames: text.split('\n') };
  },
};

const glob: Shape = withString({
  extract: (response) => (isObject(response) ? (stringArray(response.filenames)?.join('\n') ?? null) : null),
  rebuild: (response, text) => ({ ...(response as Json), filenames: text.split('\n') }),
});

const webfetch: Shape = {
  extract: (response) => (isObject(response) && typeof response.result === 'string' ? response.result : null),
  rebuild: (response, text) => ({ ...(response as Json), result: text }),
};

const websearch: Shape = {
  extract(response) {
    if (!isObject(response) || !Array.isArray(response.results)) return null;
    const parts: string[] = [];
    for (const item of response.results) {
      if (typeof item === 'string') parts.push(item);
      else if (isObject(item) && Array.isArray(item.content)) {
        for (const link of item.content) {
          if (isObject(link) && typeof link.url === 'string') parts.push(`- ${typeof link.title === 'string' ? link.title : ''} (${link.url})`);
        }
      }
    }
    return parts.join('\n');
  },
  rebuild: (response, text) => ({ ...(response as Json), results: [text] }),
};

const task: Shape = {
  extract: (response) => (isObject(response) ? blocksText(response.content) : null),
  rebuild: (response, text) => ({ ...(response as Json), content: [{ type: 'text', text }] }),
};

const taskoutput: Shape = withString({
  extract: (response) => (isObject(response) && isObject(response.task) && typeof response.task.output === 'string' ? response.task.output : null),
  rebuild(response, text) {
    const value = response as Json;
    return { ...value, task: { ...(value.task as Json), output: text } };
  },
});

/** MCP results: a string, an array of content blocks, or `{content: blocks, structuredContent?}`. */
const mcp: Shape = withString({
  extract(response) {
    if (Array.isArray(response)) return blocksText(response);
    return isObject(response) ? blocksText(response.content) : null;
  },
  rebuild(response, text) {
    if (Array.isArray(response)) return replaceTextBlocks(response, text);
    const { structuredContent: _dropped, ...rest } = response as Json;
    return { ...rest, content: replaceTextBlocks(rest.content as unknown[], text) };
  },
});

const SHAPES: Readonly<Record<ToolKind, Shape>> = { bash, read, grep, glob, webfetch, websearch, task, taskoutput, mcp };

/** The text of `[{type: "text", text}, ...]`; null when there is no text block at all. */
function blocksText(blocks: unknown): string | null {
  if (!Array.isArray(blocks)) return null;
  const texts = blocks.filter((b): b is Json => isObject(b) && b.type === 'text' && typeof b.text === 'string').map((b) => b.text as string);
  return texts.length > 0 ? texts.join('\n\n') : null;
}

/** One text block in place of all text blocks; images and other blocks stay. */
function replaceTextBlocks(blocks: readonly unknown[], text: string): unknown[] {
  const others = blocks.filter((b) => !(isObject(b) && b.type === 'text'));
  return [{ type: 'text', text }, ...others];
}

function stringArray(value: unknown): string[] | null {
  return Array.isArray(value) && value.every((x) => typeof x === 'string') ? (value as string[]) : null;
}
