import type { ReactNode } from "react";

/** A column: its label and the classes of its header cell (width, alignment). "Actions" is read aloud only. */
export type AdminColumn = readonly [label: string, className: string];

export type AdminTableProps = { caption: string; columns: readonly AdminColumn[]; minWidth: string; children: ReactNode };

/** The dense table of the admin pages: a fixed layout, a quiet header, rows from the caller. */
export function AdminTable({ caption, columns, minWidth, children }: AdminTableProps) {
  return (
    <div className="overflow-x-auto rounded-lg border border-line bg-surface">
      <table className={`w-full ${minWidth} table-fixed border-collapse text-xs`}>
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-line bg-surface-2 text-2xs text-muted">
          <tr>
            {columns.map(([label, cls]) => (
              <th key={label} scope="col" className={`h-7 px-2 font-medium ${cls}`}>
                {label === "Actions" ? <span className="sr-only">{label}</span> : label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
