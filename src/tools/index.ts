/** The built-in tools, and the pieces of them other layers use (the user's own bash, image attachments). */
import { askTool } from "./ask.ts";
import { type BashSandbox, createBashTool } from "./bash.ts";
import { editTool } from "./edit.ts";
import { findTool } from "./find.ts";
import { grepTool } from "./grep.ts";
import { lsTool } from "./ls.ts";
import type { PermissionRules } from "./permissions.ts";
import { readTool } from "./read.ts";
import { taskTool } from "./task.ts";
import { todoTool } from "./todo.ts";
import type { Tool } from "./types.ts";
import { viewImageTool } from "./view-image.ts";
import { writeTool } from "./write.ts";
import { zoomTool } from "./zoom.ts";

export { type BashSandbox, createBashTool } from "./bash.ts";
export { type ImageValidation, sniffImageType, validateImages } from "./images.ts";
export { type PermissionRules, type Verdict, checkCommand } from "./permissions.ts";
export { type ShellOptions, type ShellResult, runShell } from "./run-shell.ts";
export { SharpUnavailableError, loadSharp } from "./sharp-loader.ts";
export { type PermissionAsker, type Tool, type ToolContext, ToolError, type ToolResult } from "./types.ts";

export function builtinTools(opts: { permissions: PermissionRules; sandbox?: BashSandbox }): Tool[] {
  return [readTool, writeTool, editTool, createBashTool(opts.permissions, opts.sandbox), grepTool, findTool, lsTool, viewImageTool, zoomTool];
}

/** Every tool nova defines, for build.ts to bake their JSON Schemas into the executable. */
export function allToolsForSchemas(): Tool[] {
  return [...builtinTools({ permissions: { ask: [], allow: [], deny: [] } }), askTool, todoTool, taskTool];
}
