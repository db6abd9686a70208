import type { ReactNode } from "react";

/* The fields the list filters share (the verifications', the audit log's, the case queue's). */

const controlClass = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-600";

/** A drop-down's choices, each value named by `optionLabel`; `anyLabel` adds a first choice, value "". */
export interface SelectChoices<Option extends string> {
  options: readonly Option[];
  optionLabel?: (option: Option) => ReactNode;
  anyLabel?: string;
}

export function SelectOptions<Option extends string>({ options, optionLabel = (option) => option, anyLabel }: SelectChoices<Option>) {
  return (
    <>
      {anyLabel !== undefined ? <option value="">{anyLabel}</option> : null}
      {options.map((option) => (
        <option key={option} value={option}>
          {optionLabel(option)}
        </option>
      ))}
    </>
  );
}

/** A labelled drop-down; `anyLabel` adds a first choice, value "", that leaves the filter out. */
export function FilterSelect<Option extends string>({
  id,
  name,
  label,
  value,
  onChange,
  ...choices
}: { id: string; name: string; label: string; value: string; onChange: (value: string) => void } & SelectChoices<Option>) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <select id={id} name={name} className={controlClass} value={value} onChange={(event) => onChange(event.target.value)}>
        <SelectOptions {...choices} />
      </select>
    </div>
  );
}

/**
 * A range's two ends, from and to, side by side: each end stays on its side of the other (`min`, `max`), and
 * `invalid` marks both when they cross. The ids are `id` with `-from` and `-to`.
 */
export function RangeEnds({
  id,
  type,
  labels,
  labelClassName,
  className,
  from,
  to,
  invalid,
  onChange,
}: {
  id: string;
  type: "date" | "datetime-local";
  labels: { from: string; to: string };
  labelClassName: string;
  className: string;
  from: string;
  to: string;
  invalid: boolean;
  onChange: (end: "from" | "to", value: string) => void;
}) {
  const end = (name: "from" | "to", value: string, limit: { min?: string; max?: string }) => (
    <div>
      <label htmlFor={`${id}-${name}`} className={labelClassName}>
        {labels[name]}
      </label>
      <input
        id={`${id}-${name}`}
        name={name}
        type={type}
        className={controlClass}
        value={value}
        {...limit}
        aria-invalid={invalid || undefined}
        onChange={(event) => onChange(name, event.target.value)}
      />
    </div>
  );
  return (
    <div className={className}>
      {end("from", from, { max: to || undefined })}
      {end("to", to, { min: from || undefined })}
    </div>
  );
}
