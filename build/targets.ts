/**
 * The platforms nova ships for, and what each needs from the npm registry:
 * the Bun runtime to compile against and sharp's native packages.
 */
export interface Target {
  /** our name, used for dist/<name>/ and the npm package @nova-agent/<name> */
  name: string;
  bun: Bun.Build.CompileTarget;
  /** the npm package that holds this target's Bun runtime as package/bin/bun[.exe] */
  runtimePackage: string;
  /** sharp's name for the platform: @img/sharp-<sharp>, @img/sharp-libvips-<sharp> */
  sharp: string;
  exe: string;
  /** npm's os/cpu/libc fields for the platform package */
  os: string;
  cpu: string;
  libc?: string;
}

export const TARGETS: Target[] = [
  { name: "linux-x64", bun: "bun-linux-x64", runtimePackage: "@oven/bun-linux-x64", sharp: "linux-x64", exe: "nova", os: "linux", cpu: "x64", libc: "glibc" },
  { name: "linux-x64-musl", bun: "bun-linux-x64-musl", runtimePackage: "@oven/bun-linux-x64-musl", sharp: "linuxmusl-x64", exe: "nova", os: "linux", cpu: "x64", libc: "musl" },
  { name: "linux-arm64", bun: "bun-linux-arm64", runtimePackage: "@oven/bun-linux-aarch64", sharp: "linux-arm64", exe: "nova", os: "linux", cpu: "arm64", libc: "glibc" },
  { name: "darwin-x64", bun: "bun-darwin-x64", runtimePackage: "@oven/bun-darwin-x64", sharp: "darwin-x64", exe: "nova", os: "darwin", cpu: "x64" },
  { name: "darwin-arm64", bun: "bun-darwin-arm64", runtimePackage: "@oven/bun-darwin-aarch64", sharp: "darwin-arm64", exe: "nova", os: "darwin", cpu: "arm64" },
  { name: "windows-x64", bun: "bun-windows-x64", runtimePackage: "@oven/bun-windows-x64", sharp: "win32-x64", exe: "nova.exe", os: "win32", cpu: "x64" },
];

/** The target this machine runs, found by the same rules the launcher uses. */
export function hostTarget(): Target {
  const os = process.platform === "win32" ? "windows" : process.platform;
  const musl = process.platform === "linux" && !(process.report?.getReport() as { header?: { glibcVersionRuntime?: string } })?.header?.glibcVersionRuntime;
  const name = `${os}-${process.arch}${musl ? "-musl" : ""}`;
  const target = TARGETS.find((t) => t.name === name);
  if (!target) throw new Error(`no build target for this machine (${name}); known: ${TARGETS.map((t) => t.name).join(", ")}`);
  return target;
}
