"use client";

import { useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import { DiffTarget } from "./diff-rows";
import { parseAnchor } from "./display-rows";
import { FileDiff } from "./file-diff";
import { DIFF_VIEWS, type DiffFilePayload, type DiffSide, type DiffViewMode } from "./types";

export type DiffFilesProps = { files: DiffFilePayload[]; from: DiffSide; to: DiffSide };

export function useDiffView(): DiffViewMode {
  const raw = useSearchParams().get("view");
  return DIFF_VIEWS.find((v) => v === raw) ?? "unified";
}

/** Every file of the pair, in reviewing order; `#f<i>-L<n>` opens on a line. */
export function DiffFiles({ files, from, to }: DiffFilesProps) {
  const view = useDiffView();
  const [anchor, setAnchor] = useState<ReturnType<typeof parseAnchor>>(null);
  useEffect(() => {
    const read = () => setAnchor(parseAnchor(window.location.hash));
    read();
    window.addEventListener("hashchange", read);
    return () => window.removeEventListener("hashchange", read);
  }, []);
  return (
    <DiffTarget value={anchor ? `f${anchor.file}-${anchor.side}${anchor.no}` : null}>
      <div className="flex min-w-0 flex-col gap-3">
        {files.map((f) => (
          <FileDiff key={f.path} file={f} view={view} from={from} to={to} target={anchor && anchor.file === f.index ? { side: anchor.side, no: anchor.no } : null} />
        ))}
      </div>
    </DiffTarget>
  );
}
