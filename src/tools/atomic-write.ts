/** Writes that never leave a half-written file behind: temp file in the same folder, then rename. */
import { chmod, mkdir, realpath, rename, stat, unlink, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

export async function atomicWrite(path: string, data: string | Uint8Array): Promise<void> {
  // Write through a symlink to its target, so the link survives the rename.
  const target = await realpath(path).catch(() => path);
  const dir = dirname(target);
  await mkdir(dir, { recursive: true });
  const mode = await stat(target).then(
    (s) => s.mode & 0o7777,
    () => undefined,
  );
  const temp = join(dir, `.${basename(target)}.${process.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  try {
    await writeFile(temp, data);
    if (mode !== undefined) await chmod(temp, mode);
    await rename(temp, target);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
}
