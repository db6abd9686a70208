import { AppLink as Link } from "@/components/ui/app-link";

import { Alert } from "./alert";

/**
 * A list whose URL holds filters the server refused: says which, each by name, and offers a link back to
 * the unfiltered list. Used by every filtered list (verifications, audit log).
 */
export function InvalidFiltersAlert({
  title,
  body,
  clearHref,
  clearLabel,
  problems,
}: {
  title: string;
  body: string;
  clearHref: string;
  clearLabel: string;
  problems: Array<{ field: string; text: string }>;
}) {
  return (
    <Alert
      tone="error"
      title={title}
      action={
        <Link href={clearHref} className="font-medium text-brand-800 underline">
          {clearLabel}
        </Link>
      }
    >
      <p>{body}</p>
      <ul className="mt-1 list-disc pl-5">
        {problems.map((problem) => (
          <li key={problem.field}>
            <span className="font-mono">{problem.field}</span>: {problem.text}
          </li>
        ))}
      </ul>
    </Alert>
  );
}
