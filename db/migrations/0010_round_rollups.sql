-- Hand-written: per-run rollups of the round statistics (db/queries/rollups.ts, docs/benchmarks.md
-- "Round statistics at scale"). Built from the run's tasks at the end of every import; kept
-- current by the trigger below whenever a statement updates tasks (single decisions, bulk
-- decisions, queues, a plain UPDATE), whoever wrote it.
CREATE TABLE "round_rollup_state" (
	"run_id" integer PRIMARY KEY NOT NULL REFERENCES "runs"("id") ON DELETE CASCADE,
	"version" bigint DEFAULT 0 NOT NULL,
	"built_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Task counts per round and per value of everything a slice filters on or the page counts:
-- category, operator, review state, status, rejection reason and oracle outcome (null: no oracle
-- trial); with the solver sums of those tasks.
CREATE TABLE "round_rollup_cells" (
	"run_id" integer NOT NULL REFERENCES "runs"("id") ON DELETE CASCADE,
	"round" integer NOT NULL,
	"category" text,
	"operator" text,
	"review_state" text NOT NULL,
	"status" text NOT NULL,
	"rejection_reason" text,
	"passed" boolean,
	"n" integer NOT NULL,
	"solver_n" integer NOT NULL,
	"pass_at_k_sum" double precision NOT NULL,
	"reward_n" integer NOT NULL,
	"mean_reward_sum" double precision NOT NULL,
	CONSTRAINT "round_rollup_cells_key" UNIQUE NULLS NOT DISTINCT ("run_id","round","category","operator","review_state","status","rejection_reason","passed")
);
--> statement-breakpoint
-- Value histograms of the accepted tasks' metrics (value → tasks), per round, for every
-- combination of the slice filters: level = GROUPING(category, operator, review_state), so a
-- dimension summed over is null and its bit is set (7: the whole run, 3: one category, 5: one
-- operator, 6: one review state, 0: all three named). A slice reads exactly its level's rows.
CREATE TABLE "round_rollup_values" (
	"run_id" integer NOT NULL REFERENCES "runs"("id") ON DELETE CASCADE,
	"level" smallint NOT NULL,
	"category" text,
	"operator" text,
	"review_state" text,
	"round" integer NOT NULL,
	"metric" text NOT NULL,
	"value" integer NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "round_rollup_values_key" UNIQUE NULLS NOT DISTINCT ("run_id","level","category","operator","review_state","round","metric","value")
);
--> statement-breakpoint
-- The rows a delta brought to zero, found without reading the run's other rows.
CREATE INDEX "round_rollup_cells_zero_idx" ON "round_rollup_cells" ("run_id") WHERE "n" = 0;
--> statement-breakpoint
CREATE INDEX "round_rollup_values_zero_idx" ON "round_rollup_values" ("run_id") WHERE "n" = 0;
--> statement-breakpoint
-- The rows of one UPDATE statement whose statistics columns changed, old as -1 and new as +1,
-- added to the rollups of runs that have them (a run without rollups builds them on its next
-- read): one pass however many rows the statement changed. The runs' state rows are locked
-- first, so concurrent writers of one run take turns instead of deadlocking on histogram rows;
-- the version they bump is part of the statistics' cache key (getRoundDataVersion). An import
-- sets rst.round_rollups = 'deferred' for its transaction and rebuilds the run's rollups at its
-- end instead (db/queries/rollups.ts withRoundRollups).
CREATE FUNCTION "round_rollups_follow_tasks"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  affected integer[];
  touched bigint;
BEGIN
  IF current_setting('rst.round_rollups', true) = 'deferred' THEN
    RETURN NULL;
  END IF;
  SELECT array_agg(DISTINCT x.run_id ORDER BY x.run_id) INTO affected
  FROM (
    SELECT o.run_id, n.run_id AS new_run_id FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE (o.run_id, o.round, o.category, o.operator, o.review_state, o.status, o.rejection_reason, o.solution_lines,
           o.commands, o.distinct_tools, o.instruction_words, o.verifier_tests, o.pass_at_k, o.mean_reward)
      IS DISTINCT FROM
          (n.run_id, n.round, n.category, n.operator, n.review_state, n.status, n.rejection_reason, n.solution_lines,
           n.commands, n.distinct_tools, n.instruction_words, n.verifier_tests, n.pass_at_k, n.mean_reward)
  ) c CROSS JOIN LATERAL (VALUES (c.run_id), (c.new_run_id)) x(run_id)
  WHERE x.run_id IN (SELECT run_id FROM round_rollup_state);
  IF affected IS NULL THEN
    RETURN NULL;
  END IF;
  UPDATE round_rollup_state SET version = version + 1 WHERE run_id IN (
    SELECT run_id FROM round_rollup_state WHERE run_id = ANY (affected) ORDER BY run_id FOR UPDATE
  );
  WITH changed AS (
    SELECT o.id FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE (o.run_id, o.round, o.category, o.operator, o.review_state, o.status, o.rejection_reason, o.solution_lines,
           o.commands, o.distinct_tools, o.instruction_words, o.verifier_tests, o.pass_at_k, o.mean_reward)
      IS DISTINCT FROM
          (n.run_id, n.round, n.category, n.operator, n.review_state, n.status, n.rejection_reason, n.solution_lines,
           n.commands, n.distinct_tools, n.instruction_words, n.verifier_tests, n.pass_at_k, n.mean_reward)
  ),
  delta AS (
    SELECT x.id, x.run_id, x.round, x.category, x.operator, x.review_state, x.status, x.rejection_reason, x.solution_lines,
      x.commands, x.distinct_tools, x.instruction_words, x.verifier_tests, x.pass_at_k, x.mean_reward, -1 AS s
    FROM old_rows x JOIN changed USING (id)
    UNION ALL
    SELECT x.id, x.run_id, x.round, x.category, x.operator, x.review_state, x.status, x.rejection_reason, x.solution_lines,
      x.commands, x.distinct_tools, x.instruction_words, x.verifier_tests, x.pass_at_k, x.mean_reward, 1 AS s
    FROM new_rows x JOIN changed USING (id)
  ),
  d AS (
    SELECT delta.*, o.passed FROM delta
      LEFT JOIN LATERAL (
        SELECT bool_and(coalesce(t.reward, 0) >= 1) AS passed FROM trials t
        WHERE t.run_id = delta.run_id AND t."check" = 'oracle' AND t.task_id = delta.id HAVING count(*) > 0
      ) o ON true
    WHERE delta.round IS NOT NULL AND delta.run_id = ANY (affected)
  ),
  cells AS (
    INSERT INTO round_rollup_cells AS c
      (run_id, round, category, operator, review_state, status, rejection_reason, passed, n, solver_n, pass_at_k_sum, reward_n, mean_reward_sum)
    SELECT d.run_id, d.round, d.category, d.operator, d.review_state, d.status, d.rejection_reason, d.passed,
      sum(d.s), coalesce(sum(d.s) FILTER (WHERE d.pass_at_k IS NOT NULL), 0), coalesce(sum(d.s * d.pass_at_k), 0),
      coalesce(sum(d.s) FILTER (WHERE d.mean_reward IS NOT NULL), 0), coalesce(sum(d.s * d.mean_reward), 0)
    FROM d
    GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
    HAVING sum(d.s) <> 0 OR coalesce(sum(d.s * d.pass_at_k), 0) <> 0 OR coalesce(sum(d.s * d.mean_reward), 0) <> 0
      OR coalesce(sum(d.s) FILTER (WHERE d.pass_at_k IS NOT NULL), 0) <> 0 OR coalesce(sum(d.s) FILTER (WHERE d.mean_reward IS NOT NULL), 0) <> 0
    ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
    ON CONFLICT ON CONSTRAINT round_rollup_cells_key DO UPDATE SET
      n = c.n + excluded.n, solver_n = c.solver_n + excluded.solver_n, pass_at_k_sum = c.pass_at_k_sum + excluded.pass_at_k_sum,
      reward_n = c.reward_n + excluded.reward_n, mean_reward_sum = c.mean_reward_sum + excluded.mean_reward_sum
    RETURNING 1
  ),
  vals AS (
    INSERT INTO round_rollup_values AS v (run_id, level, category, operator, review_state, round, metric, value, n)
    SELECT d.run_id, GROUPING(d.category, d.operator, d.review_state), d.category, d.operator, d.review_state, d.round, m.metric, m.value, sum(d.s)
    FROM d
      CROSS JOIN LATERAL (VALUES ('solution_lines', d.solution_lines), ('commands', d.commands), ('distinct_tools', d.distinct_tools),
        ('instruction_words', d.instruction_words), ('verifier_tests', d.verifier_tests)) m(metric, value)
    WHERE d.status = 'accepted' AND m.value IS NOT NULL
    GROUP BY d.run_id, d.round, m.metric, m.value, CUBE (d.category, d.operator, d.review_state)
    HAVING sum(d.s) <> 0
    ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
    ON CONFLICT ON CONSTRAINT round_rollup_values_key DO UPDATE SET n = v.n + excluded.n
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM cells) + (SELECT count(*) FROM vals) INTO touched;
  DELETE FROM round_rollup_cells WHERE run_id = ANY (affected) AND n = 0;
  DELETE FROM round_rollup_values WHERE run_id = ANY (affected) AND n = 0;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "tasks_round_rollups" AFTER UPDATE ON "tasks"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "round_rollups_follow_tasks"();
