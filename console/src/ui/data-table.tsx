import type { ReactNode } from 'react';

/** A column of a DataTable: its name, or a column named only for screen readers (a row's actions). */
export type DataColumn = string | { label: string; hidden: true } | false;

/** A table of a page's items: one header row of named columns (`false` leaves a column out), the rows as children. */
export function DataTable({ className, columns, children }: { className: string; columns: DataColumn[]; children: ReactNode }) {
  return (
    <table className={className}>
      <thead>
        <tr>
          {columns.filter((column) => column !== false).map((column) =>
            typeof column === 'string' ? (
              <th key={column} scope="col">
                {column}
              </th>
            ) : (
              <th key={column.label} scope="col">
                <span className="visually-hidden">{column.label}</span>
              </th>
            ),
          )}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

/** The last column of an account table: the row's buttons, named for screen readers only. */
export const actionsColumn: DataColumn = { label: 'Actions', hidden: true };
