import {
  useId,
  type FormHTMLAttributes,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from "react";

interface FrameProps {
  label: string;
  hint?: ReactNode;
  error?: string;
}

/**
 * The label above, the hint and the error below, tied to the control for screen readers (aria-invalid,
 * aria-describedby): one frame for every field kind.
 */
function FieldFrame({
  id,
  label,
  hint,
  error,
  className,
  control,
}: FrameProps & {
  id: string | undefined;
  className?: string;
  control: (props: { id: string; "aria-invalid"?: true; "aria-describedby"?: string; boxClass: string }) => ReactNode;
}) {
  const generated = useId();
  const controlId = id ?? generated;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  return (
    <div className={className}>
      <label htmlFor={controlId} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {control({
        id: controlId,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": [hintId, errorId].filter(Boolean).join(" ") || undefined,
        boxClass: `mt-1 block w-full rounded-md border px-3 py-2 text-sm shadow-sm ${error ? "border-red-600" : "border-slate-300"} focus:border-brand-600`,
      })}
      {hint ? (
        <p id={hintId} className="mt-1 text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A field's props parted: the frame's, and the rest for its control. */
function splitFrame<P extends FrameProps & { id?: string; className?: string }>({ label, hint, error, id, className = "", ...rest }: P) {
  return [{ label, hint, error, id, className }, rest] as const;
}

export interface FieldProps extends FrameProps, InputHTMLAttributes<HTMLInputElement> {}

/** A labelled input whose hint and error are tied to it for screen readers. */
export function Field(props: FieldProps) {
  const [frame, rest] = splitFrame(props);
  return <FieldFrame {...frame} control={({ boxClass, ...aria }) => <input {...aria} className={boxClass} {...rest} />} />;
}

export interface TextAreaFieldProps extends FrameProps, TextareaHTMLAttributes<HTMLTextAreaElement> {
  /** Added to the box's look (a monospaced face); `className` is the whole field's (its width). */
  boxClassName?: string;
}

/** A labelled text box of several lines, its hint and error tied to it as `Field`'s are. */
export function TextAreaField({ boxClassName = "", ...props }: TextAreaFieldProps) {
  const [frame, rest] = splitFrame(props);
  return (
    <FieldFrame
      {...frame}
      control={({ boxClass, ...aria }) => <textarea {...aria} className={`${boxClass} ${boxClassName}`} {...rest} />}
    />
  );
}

/**
 * A form drawn as a card of its own, named by its heading (the form's label for screen readers): the heading, then
 * the fields. `id` is the heading's.
 */
export function TitledForm({ id, title, children, ...rest }: { id: string; title: string } & FormHTMLAttributes<HTMLFormElement>) {
  return (
    <form noValidate aria-labelledby={id} className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm" {...rest}>
      <h3 id={id} className="text-base font-semibold text-slate-900">
        {title}
      </h3>
      {children}
    </form>
  );
}

export interface SelectFieldProps extends FrameProps, SelectHTMLAttributes<HTMLSelectElement> {}

/** A labelled choice among options (the `option`s are its children), its hint and error tied to it as `Field`'s are. */
export function SelectField(props: SelectFieldProps) {
  const [frame, rest] = splitFrame(props);
  return <FieldFrame {...frame} control={({ boxClass, ...aria }) => <select {...aria} className={`${boxClass} bg-white`} {...rest} />} />;
}
