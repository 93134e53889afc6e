/**
 * nova's own content-addressed store for checkpoints: each file content once,
 * zstd-compressed, under `objects/<2>/<62>` named by the SHA-256 of the bytes.
 * Written to a temp name and renamed, so two nova processes in one project
 * can store the same object at once and a kill leaves no half object.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export class ObjectStore {
  constructor(readonly dir: string) {}

  static hash(bytes: Uint8Array): string {
    return new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
  }

  path(hash: string): string {
    return join(this.dir, hash.slice(0, 2), hash.slice(2));
  }

  /** Stores the bytes (once) and returns their hash. */
  put(bytes: Uint8Array): string {
    const hash = ObjectStore.hash(bytes);
    const path = this.path(hash);
    if (existsSync(path)) return hash;
    mkdirSync(join(this.dir, hash.slice(0, 2)), { recursive: true });
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, Bun.zstdCompressSync(bytes));
    renameSync(tmp, path);
    return hash;
  }

  get(hash: string): Uint8Array {
    return Bun.zstdDecompressSync(readFileSync(this.path(hash)));
  }

  has(hash: string): boolean {
    return existsSync(this.path(hash));
  }
}
