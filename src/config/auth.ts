/**
 * `$NOVA_HOME/auth.json`: API keys the user gave through `login`. Written with
 * mode 0600 (temp file, then rename, so a crash never leaves half a file) and
 * never echoed anywhere.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export type AuthFile = Record<string, { type: "api-key"; key: string }>;

export function authPath(novaHome: string): string {
  return join(novaHome, "auth.json");
}

export function readAuth(novaHome: string): AuthFile {
  const path = authPath(novaHome);
  if (!existsSync(path)) return {};
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8"));
    return parsed && typeof parsed === "object" ? (parsed as AuthFile) : {};
  } catch {
    process.stderr.write(`nova: ${path} is not valid JSON; ignoring stored logins\n`);
    return {};
  }
}

export function saveApiKey(novaHome: string, providerId: string, key: string): void {
  const auth = readAuth(novaHome);
  auth[providerId] = { type: "api-key", key };
  mkdirSync(novaHome, { recursive: true });
  const path = authPath(novaHome);
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(auth, null, 2) + "\n", { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, path);
}
