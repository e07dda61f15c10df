// Where trial pages live in the dashboard (a log's page: logPageUrl in lib/query/logs.ts).
export function compareHref(taskId: number, a: number, b: number): string {
  return `/tasks/${taskId}/trials/compare?a=${a}&b=${b}`;
}
