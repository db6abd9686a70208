import type { TextareaHTMLAttributes } from "react";

const boxClass = "block w-full rounded-md border border-slate-300 px-3 py-2 text-sm";

/**
 * A case form's labelled text of two rows (a note, an outcome's comment, a confirmation's comment): the label and
 * the box as siblings, so the form's spacing lays them out; `className` adds to the box's look.
 */
export function TextBox({
  id,
  label,
  className,
  ...rest
}: { id: string; label: string; className?: string } & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "id" | "rows">) {
  return (
    <>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <textarea id={id} rows={2} className={className ? `${boxClass} ${className}` : boxClass} {...rest} />
    </>
  );
}
