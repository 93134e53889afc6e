/**
 * A text file's BOM and line-ending style, so an edit can work on plain LF text
 * and write the file back the way it was.
 */

export interface TextStyle {
  bom: boolean;
  crlf: boolean;
}

export function splitStyle(raw: string): { style: TextStyle; text: string } {
  const bom = raw.charCodeAt(0) === 0xfeff;
  const body = bom ? raw.slice(1) : raw;
  const firstNewline = body.indexOf("\n");
  const crlf = firstNewline > 0 && body.charCodeAt(firstNewline - 1) === 13;
  return { style: { bom, crlf }, text: crlf ? toLF(body) : body };
}

export function applyStyle(text: string, style: TextStyle): string {
  const body = style.crlf ? text.replaceAll("\n", "\r\n") : text;
  return style.bom ? `\uFEFF${body}` : body;
}

export function toLF(text: string): string {
  return text.includes("\r\n") ? text.replaceAll("\r\n", "\n") : text;
}
