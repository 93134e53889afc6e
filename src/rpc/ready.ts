/** The `ready` frame: enough for a host to check what it talks to without running `nova --version`. */
import { versionInfo } from "../cli/version.ts";
import { capabilities, PROTOCOL_VERSION } from "../core/protocol.ts";

export function readyFrame() {
  return { type: "ready", version: versionInfo().version, protocolVersion: PROTOCOL_VERSION, capabilities: [...capabilities] } as const;
}
