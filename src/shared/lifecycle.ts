/** What `/readyz` and the graceful stop share: once draining, the process answers "not ready" and takes no new work. */
export interface Lifecycle {
  draining: boolean;
}
