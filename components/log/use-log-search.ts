"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import { ERROR_PATTERN } from "@/lib/log/lines";
import { firstMatchFrom, type LineMatch, matchesByLine, stepMatch } from "@/lib/log/matches";
import { ApiError } from "@/lib/query/fetch-json";
import { type LogRef, type LogSearch, logSearchQuery } from "@/lib/query/logs";

/** Typing pauses this long before the server is asked. */
const DEBOUNCE_MS = 250;
const NONE: LogSearch = { q: "", regex: false, caseSensitive: false };

/** Where to land when a new result arrives: the first match from a line (0-based) on, or the very first. */
type Landing = { from: number } | "first";

export interface LogSearchState {
  input: string;
  regex: boolean;
  caseSensitive: boolean;
  setInput: (q: string) => void;
  setRegex: (on: boolean) => void;
  setCaseSensitive: (on: boolean) => void;
  /** The next or previous match; a search still waiting on the debounce runs now instead. */
  step: (direction: 1 | -1) => void;
  /** Search for ERROR_PATTERN and land on its first match. */
  firstError: () => void;
  clear: () => void;
  searching: boolean;
  error: string | null;
  /** Occurrences in the whole log; `listed` of them can be stepped through. */
  total: number;
  listed: number;
  current: number;
  currentMatch: LineMatch | null;
  /** The results are those of "first error". */
  errorSearch: boolean;
  byLine: ReadonlyMap<number, readonly LineMatch[]> | null;
}

const same = (a: LogSearch | null, b: LogSearch) => a !== null && a.q === b.q && a.regex === b.regex && a.caseSensitive === b.caseSensitive;

/**
 * The viewer's own search (the browser's find cannot see virtualized rows): the server scans the
 * whole log; this keeps the match list, the current match, and where to land, like a browser's
 * find: from the top of the screen on, wrapping around.
 */
export function useLogSearch(ref: LogRef, topLine: () => number, onLand: (line: number) => void): LogSearchState {
  const [wanted, setWanted] = useState<LogSearch>(NONE);
  const [active, setActive] = useState<LogSearch | null>(null);
  const [current, setCurrent] = useState(-1);
  const landing = useRef<Landing | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const callbacks = useRef({ topLine, onLand });
  useEffect(() => {
    callbacks.current = { topLine, onLand };
  });

  const query = useQuery({ ...logSearchQuery(ref, active ?? NONE), enabled: active !== null });
  const data = active ? query.data : undefined;
  const matches = data?.matches;
  const byLine = useMemo(() => (matches ? matchesByLine(matches) : null), [matches]);

  useEffect(() => {
    if (!matches || landing.current === null) return;
    const to = landing.current;
    landing.current = null;
    let i = to === "first" ? 0 : firstMatchFrom(matches, to.from);
    if (i >= matches.length) i = 0;
    const match = matches[i];
    setCurrent(match ? i : -1);
    if (match) callbacks.current.onLand(match.line);
  }, [matches]);

  const run = (next: LogSearch, to: Landing | null, delay: number) => {
    clearTimeout(timer.current);
    const go = () => {
      landing.current = to ?? { from: callbacks.current.topLine() };
      setCurrent(-1);
      setActive(next.q === "" ? null : next);
    };
    if (delay > 0) timer.current = setTimeout(go, delay);
    else go();
  };
  const change = (next: LogSearch, delay = 0) => {
    setWanted(next);
    run(next, null, delay);
  };

  const land = (i: number) => {
    const m = matches?.[i];
    setCurrent(m ? i : -1);
    if (m) onLand(m.line);
  };

  const error = query.error ? (query.error instanceof ApiError ? query.error.message : "Search failed") : null;
  return {
    input: wanted.q,
    regex: wanted.regex,
    caseSensitive: wanted.caseSensitive,
    setInput: (q) => change({ ...wanted, q }, DEBOUNCE_MS),
    setRegex: (on) => change({ ...wanted, regex: on }),
    setCaseSensitive: (on) => change({ ...wanted, caseSensitive: on }),
    step: (direction) => {
      if (wanted.q === "") return;
      if (!same(active, wanted)) run(wanted, null, 0);
      else if (matches && matches.length > 0) land(stepMatch(current, matches.length, direction));
    },
    firstError: () => {
      const next = { q: ERROR_PATTERN, regex: true, caseSensitive: false };
      setWanted(next);
      if (same(active, next) && matches) land(0);
      else run(next, "first", 0);
    },
    clear: () => change(NONE),
    searching: active !== null && query.isFetching,
    error,
    total: data?.total ?? 0,
    listed: matches?.length ?? 0,
    current,
    currentMatch: matches && current >= 0 ? (matches[current] ?? null) : null,
    errorSearch: active !== null && active.regex && active.q === ERROR_PATTERN,
    byLine,
  };
}
