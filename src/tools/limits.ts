/** Caps shared by the tools so that no single result floods the model's context. */

export const MAX_LINES = 2000;
export const MAX_BYTES = 50 * 1024;
/** Longer lines are cut in read/grep output; minified files would otherwise eat the byte budget in one line. */
export const MAX_LINE_CHARS = 2000;
export const GREP_MAX_LINE_CHARS = 500;
/** Binary detection looks for a NUL byte in this many leading bytes, as git does. */
export const SNIFF_BYTES = 8192;

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

export function cutLine(line: string, max: number): string {
  return line.length <= max ? line : `${line.slice(0, max)}… [line cut at ${max} of ${line.length} chars]`;
}

export function hasNulByte(bytes: Uint8Array): boolean {
  return bytes.subarray(0, SNIFF_BYTES).indexOf(0) !== -1;
}
