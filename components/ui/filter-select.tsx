import type { ReactNode } from "react";

const selectClass = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-600";

/**
 * A list filter's labelled drop-down (the verifications', the audit log's); `anyLabel` adds a first choice, value
 * "", that leaves the filter out.
 */
export function FilterSelect<Option extends string>({
  id,
  name,
  label,
  value,
  options,
  optionLabel = (option) => option,
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
      <select id={id} name={name} className={selectClass} value={value} onChange={(event) => onChange(event.target.value)}>
        {anyLabel !== undefined ? <option value="">{anyLabel}</option> : null}
        {options.map((option) => (
          <option key={option} value={option}>
            {optionLabel(option)}
          </option>
        ))}
      </select>
    </div>
  );
}
