/**
 * The protocol's types as the client sees them, keyed by wire name. From
 * source they are inferred from the zod schemas; the npm package ships the
 * same names generated from `--print-schema` (build/client.ts), so both come
 * from one source. Type-only: the client carries no zod at run time.
 */
import type { z } from "zod";
import type { CommandOf, CommandType, ReplyOf, ReplyType } from "../rpc/commands.ts";
import type { ResponseData } from "../rpc/responses.ts";
import type { frameSchemas } from "../core/frames.ts";

type Schemas = ReturnType<typeof frameSchemas>;

export type CommandMap = { [K in CommandType]: CommandOf<K> };
/** A command's success `data`; `undefined` for the commands whose response has none. */
export type ResultMap = { [K in CommandType]: ResponseData<K> };
export type ReplyMap = { [K in ReplyType]: ReplyOf<K> };
export type FrameMap = { [K in keyof Schemas]: z.infer<Schemas[K]> };
export type Frame = FrameMap[keyof FrameMap];
