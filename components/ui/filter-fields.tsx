import type { ReactNode } from "react";

/* The fields the list filters share (the verifications', the audit log's, the case queue's). */

const controlClass = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-600";

/** A drop-down's choices, each value named by `optionLabel`; `anyLabel` adds a first choice, value "". */
export function SelectOptions<Option extends string>({
  options,
  optionLabel = (option) => option,
  anyLabel,
}: {
  options: readonly Option[];
  optionLabel?: (option: Option) => ReactNode;
  anyLabel?: string;
}) {
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
  options,
  optionLabel,
  anyLabel,
  onChange,
}: {
  id: string;
  name: string;
  label: string;
  value: string;
  options: readonly Option[];
  optionLabel?: (option: Option) => ReactNode;
  anyLabel?: string;
  onChange: (value: string) => void;
}) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <select id={id} name={name} className={controlClass} value={value} onChange={(event) => onChange(event.target.value)}>
        <SelectOptions options={options} optionLabel={optionLabel} anyLabel={anyLabel} />
      </select>
    </div>
  );
}

/**
 * One end of a range (from or to): `limit` keeps it on its side of the other end, and `invalid` marks both ends
 * when they cross.
 */
export function RangeEnd({
  id,
  name,
  type,
  label,
  labelClassName,
  value,
  limit,
  invalid,
  onChange,
}: {
  id: string;
  name: "from" | "to";
  type: "date" | "datetime-local";
  label: string;
  labelClassName: string;
  value: string;
  limit: { min?: string; max?: string };
  invalid: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <div>
      <label htmlFor={id} className={labelClassName}>
        {label}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        className={controlClass}
        value={value}
        {...limit}
        aria-invalid={invalid || undefined}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
