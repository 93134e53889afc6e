/** Token and cost sums over assistant messages' usage. */
import { emptyUsage, type AssistantMessage, type Usage } from "./messages.ts";

type Counts = Pick<Usage, "input" | "output" | "cacheRead" | "cacheWrite">;

/** Input, output and both cache counts added up (the same sum for tokens and for dollars). */
export function countTotal(counts: Counts): number {
  return counts.input + counts.output + counts.cacheRead + counts.cacheWrite;
}

/** Every message's usage added up; `totalTokens` is the total of the summed counts. */
export function sumUsage(messages: readonly AssistantMessage[]): Usage {
  const sum = emptyUsage();
  for (const { usage } of messages) {
    sum.input += usage.input;
    sum.output += usage.output;
    sum.cacheRead += usage.cacheRead;
    sum.cacheWrite += usage.cacheWrite;
    sum.cost.input += usage.cost.input;
    sum.cost.output += usage.cost.output;
    sum.cost.cacheRead += usage.cost.cacheRead;
    sum.cost.cacheWrite += usage.cost.cacheWrite;
    sum.cost.total += usage.cost.total;
  }
  sum.totalTokens = countTotal(sum);
  return sum;
}
