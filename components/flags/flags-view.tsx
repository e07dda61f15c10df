"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { useHotkeys } from "@/components/shell/use-hotkeys";
import { Kbd } from "@/components/ui/kbd";
import { PageHeader } from "@/components/ui/page-header";
import { NO_OPERATOR } from "@/lib/api/flag-schemas";
import type { FlagCountsJson } from "@/lib/api/types";
import { formatInt } from "@/lib/format/number";
import { flagCountsQuery, flagListQuery } from "@/lib/query/flags";
import type { Closing } from "./flag-actions";
import { FlagFilters } from "./flag-filters";
import { FlagList } from "./flag-list";
import { HeatTable } from "./heat-table";
import { RuleCounts } from "./rule-counts";
import { type FlagParamPatch, useFlagSearch } from "./use-flag-search";

export type FlagsViewProps = {
  /** The run shown when the address names none. */
  defaultRun: string;
  canFlag: boolean;
};

function totals(c: FlagCountsJson | undefined) {
  const sum = (k: "open" | "outdated" | "dismissed" | "resolved") => (c?.rules ?? []).reduce((n, r) => n + r[k], 0);
  return { open: sum("open"), outdated: sum("outdated"), dismissed: sum("dismissed"), resolved: sum("resolved") };
}

/** Columns of the operator table: the busiest operators first, seeds last. */
function operatorColumns(c: FlagCountsJson | undefined): string[] {
  const by = new Map<string, number>();
  for (const cell of c?.by_operator ?? []) by.set(cell.key, (by.get(cell.key) ?? 0) + cell.count);
  return [...by.entries()].sort((a, b) => (a[0] === NO_OPERATOR ? 1 : b[0] === NO_OPERATOR ? -1 : b[1] - a[1] || a[0].localeCompare(b[0]))).map(([k]) => k);
}

export function FlagsView({ defaultRun, canFlag }: FlagsViewProps) {
  const router = useRouter();
  const search = useFlagSearch(defaultRun);
  const counts = useQuery(flagCountsQuery(search.run));
  const list = useQuery(flagListQuery(search.apiSearch));
  const [selected, setSelected] = useState(-1);
  const [closing, setClosing] = useState<Closing | null>(null);
  const items = list.data?.items ?? [];
  const t = totals(counts.data);
  const rounds = [...new Set((counts.data?.by_round ?? []).map((c) => c.key))].sort((a, b) => Number(a) - Number(b));
  const operators = operatorColumns(counts.data);
  const roundKey = search.get("round");
  const operatorKey = search.get("operator");

  const listKey = items.map((f) => f.id).join(",");
  useEffect(() => {
    setSelected((i) => Math.min(i, items.length - 1));
    // The list changes under a reason form only when its flag closed: the form goes with it.
    setClosing(null);
  }, [listKey, items.length]);
  useEffect(() => {
    if (selected < 0) return;
    document.querySelector(`tr[data-index="${selected}"]`)?.scrollIntoView({ block: "nearest" });
  }, [selected]);

  const current = items[selected];
  const move = (d: number) => {
    setClosing(null);
    setSelected((i) => Math.max(0, Math.min(items.length - 1, i + d)));
  };
  useHotkeys({
    j: () => move(1),
    k: () => move(-1),
    ArrowDown: (e) => {
      e.preventDefault();
      move(1);
    },
    ArrowUp: (e) => {
      e.preventDefault();
      move(-1);
    },
    Enter: (e) => {
      if (e.target instanceof HTMLElement && e.target.closest("a,button")) return;
      if (current) router.push(current.evidence_href);
    },
    e: (e) => {
      if (!canFlag || current?.status !== "open") return;
      e.preventDefault();
      setClosing("resolved");
    },
    d: (e) => {
      if (!canFlag || current?.status !== "open") return;
      e.preventDefault();
      setClosing("dismissed");
    },
    "]": () => list.data?.next && search.update({ cursor: list.data.next }, { keepCursor: true }),
    "[": () => search.get("cursor") && search.update({ cursor: null }),
  });

  const pick = (patch: FlagParamPatch) => {
    setSelected(-1);
    search.update(patch);
  };

  return (
    <>
      <PageHeader
        title="Flags"
        subtitle={
          <>
            {search.run}: <span className="text-warn">{formatInt(t.open)} open</span> · {formatInt(t.outdated)} outdated · {formatInt(t.dismissed)} dismissed · {formatInt(t.resolved)} resolved
          </>
        }
      />
      {/* Fifteen rounds need ≈ 45rem: the operators (dozens, scrolled) get a row of their own unless the screen is very wide. */}
      <div className="mb-3 grid gap-3 xl:grid-cols-[minmax(0,22rem)_minmax(0,1fr)] min-[1900px]:grid-cols-[minmax(0,22rem)_minmax(0,1fr)_minmax(0,1fr)]">
        <RuleCounts rules={counts.data?.rules ?? []} current={search.get("rule")} onPick={(rule) => pick({ rule: rule || null })} />
        <HeatTable
          title="Open per rule × round"
          axis="round"
          cells={counts.data?.by_round ?? []}
          columns={rounds}
          current={roundKey ? { rule: search.get("rule"), key: roundKey } : null}
          onPick={(rule, key) => pick({ rule, round: key, operator: null, status: null })}
        />
        <HeatTable
          title="Open per rule × operator"
          axis="operator"
          cells={counts.data?.by_operator ?? []}
          columns={operators}
          columnLabel={(k) => (k === NO_OPERATOR ? "seed" : k)}
          current={operatorKey ? { rule: search.get("rule"), key: operatorKey } : null}
          onPick={(rule, key) => pick({ rule, operator: key, round: null, status: null })}
          className="xl:col-span-2 min-[1900px]:col-span-1"
        />
      </div>
      <div className="mb-2 flex flex-wrap items-end justify-between gap-2">
        <FlagFilters get={search.get} rounds={rounds} operators={operators} onChange={pick} />
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-2xs text-muted" aria-label="Keyboard shortcuts">
          <span>
            <Kbd>j</Kbd> <Kbd>k</Kbd> move
          </span>
          <span>
            <Kbd>Enter</Kbd> open evidence
          </span>
          {canFlag && (
            <>
              <span>
                <Kbd>e</Kbd> resolve
              </span>
              <span>
                <Kbd>d</Kbd> dismiss
              </span>
            </>
          )}
          <span>
            <Kbd>[</Kbd> <Kbd>]</Kbd> pages
          </span>
        </p>
      </div>
      {list.isError ? (
        <p role="alert" className="rounded-md border border-bad/40 bg-bad-soft px-3 py-2 text-xs text-bad">
          Could not load the flags: {list.error.message}
        </p>
      ) : list.isPending ? (
        <p className="px-1 py-4 text-xs text-faint">Loading…</p>
      ) : items.length === 0 ? (
        <p className="rounded-lg border border-line bg-surface px-3 py-6 text-center text-xs text-faint">No flags match these filters.</p>
      ) : (
        <FlagList items={items} selected={selected} onSelect={setSelected} closing={closing} onClosing={setClosing} canFlag={canFlag} busy={list.isPlaceholderData} />
      )}
      <nav aria-label="Pages" className="mt-2 flex items-center justify-end gap-3 text-xs">
        {search.get("cursor") && (
          <button type="button" className="text-accent hover:underline" onClick={() => search.update({ cursor: null })}>
            « Newest
          </button>
        )}
        {list.data?.next && (
          <button type="button" className="text-accent hover:underline" onClick={() => search.update({ cursor: list.data?.next ?? null }, { keepCursor: true })}>
            Older »
          </button>
        )}
      </nav>
    </>
  );
}
