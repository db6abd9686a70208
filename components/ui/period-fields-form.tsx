import { BareButton } from "./button";

interface PeriodLabels {
  from: string;
  to: string;
  apply: string;
  /** Under the fields: the longest period and the time zone its days are counted in. */
  hint: string;
}

/**
 * A period as a plain GET form (no client JavaScript): two required dates sent as `from` and `to`, so the values
 * stay in the address and a view can be bookmarked, shared and printed as is. `action` names where it goes (the
 * page's own address when absent, which keeps the connection the address names); `idPrefix` keeps the ids of two
 * such forms apart.
 */
export function PeriodFieldsForm({
  idPrefix,
  action,
  from,
  to,
  labels,
}: {
  idPrefix: string;
  action?: string;
  from?: string;
  to?: string;
  labels: PeriodLabels;
}) {
  const hintId = `${idPrefix}-hint`;
  return (
    <form method="get" action={action} className="flex flex-wrap items-end gap-3 print:hidden" aria-describedby={hintId}>
      <DateInput id={`${idPrefix}-from`} name="from" label={labels.from} value={from} />
      <DateInput id={`${idPrefix}-to`} name="to" label={labels.to} value={to} />
      <BareButton
        type="submit"
        withoutScript
        className="rounded-md bg-brand-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-800"
      >
        {labels.apply}
      </BareButton>
      <p id={hintId} className="w-full text-xs text-slate-600">
        {labels.hint}
      </p>
    </form>
  );
}

/** One end of the period: a labelled date, sent as `name`. */
function DateInput({ id, name, label, value }: { id: string; name: "from" | "to"; label: string; value: string | undefined }) {
  return (
    <div className="flex flex-col">
      <label htmlFor={id} className="text-xs font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type="date"
        defaultValue={value}
        required
        className="rounded-md border border-slate-300 px-2 py-1.5 text-sm"
      />
    </div>
  );
}
