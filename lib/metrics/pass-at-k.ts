/**
 * Unbiased pass@k from n samples with `successes` correct: 1 - C(n-c, k) / C(n, k), computed as
 * 1 - Π_{i=n-c+1..n} (1 - k/i) so that no binomial overflows (Chen et al., 2021).
 * Null when the inputs cannot describe an evaluation (n <= 0, n < k, c outside 0..n, non-integers).
 */
export function passAtK(n: number, successes: number, k: number): number | null {
  if (![n, successes, k].every(Number.isInteger)) return null;
  if (n <= 0 || k <= 0 || n < k || successes < 0 || successes > n) return null;
  // Fewer failures than draws: every draw of k contains a success.
  if (n - successes < k) return 1;
  let allFail = 1;
  for (let i = n - successes + 1; i <= n; i += 1) allFail *= 1 - k / i;
  return 1 - allFail;
}
