// event-normalize's aggregates of the normalised events: counts per type, per day, and the revenue
// figures, each in one of a few implementations, in any order.
import { sh } from "../operators/common";
import type { Rng } from "../prng";
import { variant } from "./compose";

/** How the script spells the normalised events and the three aggregate files. */
export interface AggregatePaths {
  N: string;
  C: string;
  D: string;
  R: string;
}

/** The sections writing events_by_type.csv, daily_counts.txt and revenue.json, shuffled; adds the tools they run. */
export function aggregateSections(rng: Rng, tools: Set<string>, { N, C, D, R }: AggregatePaths): string[] {
  const csvHeaderFirst = rng.chance(0.5);
  const byType = variant(rng, tools, [
    [
      sh`
        # Counts per type, busiest first.
        jq -s -r '
          group_by(.type)
          | map({type: .[0].type, count: length})
          | sort_by(-.count, .type)[]
          | "\\(.type),\\(.count)"
        ' ${N} | sed '1i type,count' > ${C}`,
      ["jq", "sed"],
    ],
    [
      csvHeaderFirst
        ? sh`
            echo "type,count" > ${C}
            jq -r '.type' ${N} | sort | uniq -c | sort -k1,1nr -k2,2 | awk '{ print $2 "," $1 }' >> ${C}`
        : sh`
            {
              echo "type,count"
              jq -r '.type' ${N} | sort | uniq -c | sort -k1,1nr -k2,2 | awk '{ print $2 "," $1 }'
            } > ${C}`,
      ["jq", "sort", "uniq", "awk"],
    ],
    [
      sh`
        # type,count with the busiest type on top.
        printf 'type,count\\n' > ${C}
        jq -r '.type' ${N} | awk '
          { n[$0]++ }
          END {
            for (t in n)
              print t "," n[t]
          }
        ' | sort -t, -k2,2nr -k1,1 >> ${C}`,
      ["jq", "awk", "sort"],
    ],
  ]);
  const daily = variant(rng, tools, [
    [
      sh`
        # One "<date> <count>" line per day, oldest first.
        jq -s -r '
          group_by(.date)[]
          | "\\(.[0].date) \\(length)"
        ' ${N} > ${D}`,
      ["jq"],
    ],
    [`jq -r '.date' ${N} | sort | uniq -c | awk '{ print $2, $1 }' > ${D}`, ["jq", "sort", "uniq", "awk"]],
    [
      sh`
        while read -r count day; do
          echo "$day $count"
        done < <(jq -r '.date' ${N} | sort | uniq -c) > ${D}`,
      ["jq", "sort", "uniq"],
    ],
  ]);
  const revenue = variant(rng, tools, [
    [
      sh`
        # Net revenue: purchases minus refunds, plus distinct active users.
        jq -s '{
            purchases: (map(select(.type == "purchase") | .amount) | add // 0),
            refunds: (map(select(.type == "refund") | .amount) | add // 0),
            active_users: (map(.user) | unique | length)
          }
          | .net = .purchases - .refunds' ${N} > ${R}`,
      ["jq"],
    ],
    [
      sh`
        jq -s '
          (map(select(.type == "purchase").amount) | add // 0) as $in
          | (map(select(.type == "refund").amount) | add // 0) as $out
          | {purchases: $in, refunds: $out, net: ($in - $out), active_users: (map(.user) | unique | length)}
        ' ${N} > ${R}`,
      ["jq"],
    ],
    [
      sh`
        # Revenue figures into shell variables, assembled with --argjson so they stay numbers.
        read -r purchases refunds users < <(jq -s -r '[
            (map(select(.type == "purchase") | .amount) | add // 0),
            (map(select(.type == "refund") | .amount) | add // 0),
            (map(.user) | unique | length)
          ] | @tsv' ${N})
        jq -n --argjson p "$purchases" --argjson r "$refunds" --argjson u "$users" \\
          '{purchases: $p, refunds: $r, net: ($p - $r), active_users: $u}' > ${R}`,
      ["jq"],
    ],
    [
      sh`
        jq -r '[.type, .amount, .user] | @tsv' ${N} | awk -F'\\t' '
          $1 == "purchase" { bought += $2 }
          $1 == "refund" { returned += $2 }
          !($3 in users) { users[$3] = 1; active++ }
          END { printf "{\\"purchases\\": %s, \\"refunds\\": %s, \\"net\\": %s, \\"active_users\\": %d}\\n", bought + 0, returned + 0, bought - returned, active }
        ' > ${R}`,
      ["jq", "awk"],
    ],
  ]);
  return rng.shuffle([byType, daily, revenue]);
}
