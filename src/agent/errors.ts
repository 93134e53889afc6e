/** A command the agent refuses, with a sentence the host can show as is. */
export class CommandError extends Error {}
