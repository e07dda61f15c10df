export type DialogTitleBarProps = {
  /** The heading's id, for the dialog's `aria-labelledby`. */
  id: string;
  title: string;
  onClose: () => void;
};

/** A modal dialog's heading with its ✕ button. */
export function DialogTitleBar({ id, title, onClose }: DialogTitleBarProps) {
  return (
    <div className="flex items-center justify-between">
      <h2 id={id} className="text-sm font-semibold">
        {title}
      </h2>
      <button type="button" onClick={onClose} className="rounded px-1.5 text-muted hover:text-fg" aria-label="Close">
        ✕
      </button>
    </div>
  );
}
