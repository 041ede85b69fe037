/** A learned model that rescores (goal, element) candidates. Filled in by the ranking work. */
export interface Reranker {
  readonly name: string;
}
