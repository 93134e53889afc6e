/**
 * nova's requests to the ACP client, one spec each: the method, the SDK's
 * types of its params and result, and the check of the result for the fields
 * nova reads (a client that answers without them fails the call with a
 * message instead of a crash further on).
 */
import type * as acp from "@agentclientprotocol/sdk";
import { requestSpec } from "../host/pending.ts";

/** A result that must be an object whose named fields have these types. */
function shaped<R>(method: string, fields: Record<string, "string" | "boolean">): (value: unknown) => R {
  return (value) => {
    const record = value !== null && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
    const bad = Object.entries(fields).find(([name, type]) => typeof record?.[name] !== type);
    if (bad) throw new Error(`${method}: the client's result needs ${bad[0]} as a ${bad[1]}, got ${JSON.stringify(value)?.slice(0, 80)}`);
    return value as R;
  };
}

/** Results nova reads leniently (absent fields mean "no") or not at all. */
const asIs = <R>(value: unknown) => value as R;

export const clientRequests = {
  requestPermission: requestSpec<acp.RequestPermissionRequest, Partial<acp.RequestPermissionResponse> | null>("session/request_permission", asIs),
  readTextFile: requestSpec<acp.ReadTextFileRequest, acp.ReadTextFileResponse>("fs/read_text_file", shaped("fs/read_text_file", { content: "string" })),
  writeTextFile: requestSpec<acp.WriteTextFileRequest, acp.WriteTextFileResponse | null>("fs/write_text_file", asIs),
  createTerminal: requestSpec<acp.CreateTerminalRequest, acp.CreateTerminalResponse>("terminal/create", shaped("terminal/create", { terminalId: "string" })),
  killTerminal: requestSpec<acp.KillTerminalRequest, acp.KillTerminalResponse | null>("terminal/kill", asIs),
  waitForTerminalExit: requestSpec<acp.WaitForTerminalExitRequest, acp.WaitForTerminalExitResponse>("terminal/wait_for_exit", shaped("terminal/wait_for_exit", {})),
  terminalOutput: requestSpec<acp.TerminalOutputRequest, acp.TerminalOutputResponse>("terminal/output", shaped("terminal/output", { output: "string", truncated: "boolean" })),
  releaseTerminal: requestSpec<acp.ReleaseTerminalRequest, acp.ReleaseTerminalResponse | null>("terminal/release", asIs),
};
