import { createContext, useContext, type Provider } from "react";

/**
 * A context only its provider's subtree reads (a page's shared dialogs, the list's navigation): its provider, and
 * a hook that returns the value or throws, naming the provider, when a component is drawn outside it. A missing
 * provider is a mistake in the page, not a state to draw.
 */
export function requiredContext<Value>(provider: string): readonly [Provider<Value | null>, () => Value] {
  const Context = createContext<Value | null>(null);
  Context.displayName = provider;
  function useRequiredContext(): Value {
    const value = useContext(Context);
    if (value === null) throw new Error(`read outside ${provider}`);
    return value;
  }
  return [Context.Provider, useRequiredContext];
}
