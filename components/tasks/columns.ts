// Columns of the task table: what each shows, how it sorts, how it aligns.
import type { SortColumn } from "@/lib/tasks/filter";

export type ColumnId =
  | "task"
  | "round"
  | "status"
  | "operator"
  | "category"
  | "review"
  | "solution_lines"
  | "commands"
  | "distinct_tools"
  | "instruction_words"
  | "verifier_tests"
  | "pass_at_k"
  | "flags";

export type Column = {
  id: ColumnId;
  label: string;
  title?: string;
  sort: SortColumn;
  numeric: boolean;
  width: string;
};

export const COLUMNS: readonly Column[] = [
  { id: "task", label: "Task", sort: "id", numeric: false, width: "min-w-56" },
  { id: "round", label: "Rnd", title: "Round", sort: "round", numeric: true, width: "w-12" },
  { id: "status", label: "Status", sort: "status", numeric: false, width: "w-20" },
  { id: "operator", label: "Operator", title: "Rewrite operator", sort: "operator", numeric: false, width: "w-40" },
  { id: "category", label: "Category", sort: "category", numeric: false, width: "w-40" },
  { id: "review", label: "Review", sort: "review", numeric: false, width: "w-24" },
  { id: "solution_lines", label: "Lines", title: "Reference solution lines", sort: "solution_lines", numeric: true, width: "w-14" },
  { id: "commands", label: "Cmds", title: "Executed commands", sort: "commands", numeric: true, width: "w-14" },
  { id: "distinct_tools", label: "Tools", title: "Distinct CLI tools", sort: "distinct_tools", numeric: true, width: "w-14" },
  { id: "instruction_words", label: "Words", title: "Instruction words", sort: "instruction_words", numeric: true, width: "w-14" },
  { id: "verifier_tests", label: "Tests", title: "Verifier tests", sort: "verifier_tests", numeric: true, width: "w-12" },
  { id: "pass_at_k", label: "pass@k", title: "Solver pass@k", sort: "pass_at_k", numeric: true, width: "w-16" },
  { id: "flags", label: "Flags", title: "Open flags", sort: "flags", numeric: true, width: "w-12" },
];

/** The server's order when the URL names none (db/queries/tasks.ts: round ascending). */
export const DEFAULT_SORT: SortColumn = "round";

export type SortState = { column: SortColumn; descending: boolean };

export function parseSort(sort: string | undefined): SortState {
  if (!sort) return { column: DEFAULT_SORT, descending: false };
  return { column: sort.replace(/^-/, "") as SortColumn, descending: sort.startsWith("-") };
}

/** Clicking the sorted column flips direction; another column starts ascending. */
export function nextSort(current: SortState, column: SortColumn): string {
  if (current.column === column) return current.descending ? column : `-${column}`;
  return column;
}
