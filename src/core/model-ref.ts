/** "provider/id", as flags, the config, sub-agent requests and ACP's model option write a model. */
export interface ModelRef {
  provider: string;
  id: string;
}

/** Splits at the first slash (ids may hold more); without one the provider is "" and matches nothing. */
export function parseModelRef(ref: string): ModelRef {
  const slash = ref.indexOf("/");
  if (slash < 0) return { provider: "", id: ref };
  return { provider: ref.slice(0, slash), id: ref.slice(slash + 1) };
}
