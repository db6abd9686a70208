import { useTranslations } from "next-intl";

/*
 * Labels of the service's tokens (flows, journeys, notice codes) from the catalogue in both languages. A
 * token the catalogue does not know is shown as received: the service may add flows and codes at any time.
 */

function useCatalogue(namespace: "verifications.flows" | "verifications.journeys" | "verifications.notices") {
  const t = useTranslations(namespace);
  return (token: string | null | undefined): string | null => {
    if (!token) return null;
    // next-intl reads "." as nesting: a token holding one can never be a catalogue key.
    if (token.includes(".")) return null;
    return t.has(token as never) ? t(token as never) : null;
  };
}

export function useFlowLabel() {
  const label = useCatalogue("verifications.flows");
  return (flow: string | null | undefined) => label(flow) ?? flow ?? null;
}

export function useJourneyLabel() {
  const label = useCatalogue("verifications.journeys");
  return (journey: string | null | undefined) => label(journey) ?? journey ?? null;
}

/** The catalogue's text for a notice code, or null when the code is unknown (the upstream text stands alone). */
export function useNoticeText() {
  return useCatalogue("verifications.notices");
}
