/**
 * The variables a bash tool command sees about the session it runs in, under
 * nova's names and under the names Pi's users' scripts read (Pi 1.6.0
 * docs/environment-variables.md). Resolved when each command starts, so a
 * model or thinking change reaches the next command.
 */
export interface SessionFacts {
  sessionId: string;
  sessionFile: string | undefined;
  provider: string | undefined;
  model: string | undefined;
  thinkingLevel: string;
}

/** undefined = removed from the inherited environment, so a parent agent's stale value does not leak through */
export function sessionEnvironment(facts: SessionFacts): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { AI_AGENT: "nova", PI_CODING_AGENT: "true" };
  const both = (name: string, pi: string, value: string | undefined) => {
    env[`NOVA_${name}`] = value;
    env[`PI_${pi}`] = value;
  };
  both("SESSION_ID", "SESSION_ID", facts.sessionId);
  both("SESSION_FILE", "SESSION_FILE", facts.sessionFile);
  both("PROVIDER", "PROVIDER", facts.provider);
  both("MODEL", "MODEL", facts.model);
  both("THINKING_LEVEL", "REASONING_LEVEL", facts.thinkingLevel);
  return env;
}
