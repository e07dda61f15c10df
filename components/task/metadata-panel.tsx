import { VisibleText } from "@/components/code/visible-text";
import { flattenMetadata } from "@/lib/text/flatten";
import { SideSection } from "./side-section";

export type MetadataPanelProps = { metadata: Record<string, unknown> };

/** task.toml as parsed at ingest, flattened to dotted keys. */
export function MetadataPanel({ metadata }: MetadataPanelProps) {
  const entries = flattenMetadata(metadata);
  return (
    <SideSection title="Metadata (task.toml)" count={entries.length}>
      {entries.length === 0 ? (
        <p className="text-xs text-faint">No metadata.</p>
      ) : (
        <dl className="grid grid-cols-[minmax(0,9.5rem)_minmax(0,1fr)] gap-x-3 gap-y-1 font-mono text-2xs">
          {entries.map(({ key, value }) => (
            <div key={key} className="contents">
              <dt className="truncate text-muted" title={key}>
                <VisibleText text={key} />
              </dt>
              <dd className="break-words">
                <VisibleText text={value} />
              </dd>
            </div>
          ))}
        </dl>
      )}
    </SideSection>
  );
}
