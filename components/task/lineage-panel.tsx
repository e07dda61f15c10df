import Link from "next/link";
import type { TaskDetailJson } from "@/lib/api/types";
import { SideSection } from "./side-section";
import { TaskRefLink } from "./task-ref-link";

export type LineagePanelProps = { task: TaskDetailJson };

function Label({ children }: { children: string }) {
  return <h3 className="mt-2 mb-0.5 text-2xs text-muted first:mt-0">{children}</h3>;
}

export function LineagePanel({ task }: LineagePanelProps) {
  const isSeed = task.parent_id === null;
  return (
    <SideSection title="Lineage">
      <Label>Seed</Label>
      {isSeed ? (
        <p className="px-1 text-xs text-muted">This task is a seed.</p>
      ) : task.root_id !== null ? (
        <Link href={`/tasks/${task.root_id}`} className="px-1 font-mono text-xs text-accent hover:underline">
          seed #{task.root_id}
        </Link>
      ) : (
        <p className="px-1 text-xs text-faint">Unknown.</p>
      )}
      {!isSeed && (
        <>
          <Label>Parent</Label>
          {task.parent ? <TaskRefLink task={task.parent} /> : <p className="px-1 text-xs text-faint">Not in this database (#{task.parent_id}).</p>}
        </>
      )}
      <Label>{`Children (${task.children.length})`}</Label>
      {task.children.length === 0 ? (
        <p className="px-1 text-xs text-faint">No children.</p>
      ) : (
        <ul className="max-h-72 overflow-y-auto">
          {task.children.map((c) => (
            <li key={c.id}>
              <TaskRefLink task={c} />
            </li>
          ))}
        </ul>
      )}
    </SideSection>
  );
}
