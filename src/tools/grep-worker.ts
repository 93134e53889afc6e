/**
 * A grep worker thread: reads and tests the files of each batch it is sent
 * and answers with the text of those that match (and the ones too big to
 * search); the grep tool keeps the order, the limits and the output.
 */
import { type FileFound, type PatternSpec, filePrefilter, searchBatch } from "./grep-file.ts";

export type WorkerRequest = { spec: PatternSpec } | { batch: number; files: string[] };
export interface BatchDone {
  batch: number;
  found: FileFound[];
}

declare const self: Worker;
let test: ((bytes: Buffer) => string | undefined) | undefined;

self.onmessage = (event: MessageEvent<WorkerRequest>) => {
  const request = event.data;
  if ("spec" in request) test = filePrefilter(request.spec);
  else if (test) self.postMessage({ batch: request.batch, found: searchBatch(test, request.files) } satisfies BatchDone);
};
