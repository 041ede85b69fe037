// Types of the trainer's functions the tests call (gbdt.mjs is plain JavaScript).
export interface TrainedEnsemble {
  classes: number;
  base: number[];
  trees: Array<{ f: number[]; t: number[]; l: number[]; r: number[]; v: number[] }>;
}
export function train(X: Float32Array, n: number, F: number, y: ArrayLike<number>, w: ArrayLike<number>, K: number, params?: Record<string, unknown>): TrainedEnsemble;
export function predict(model: TrainedEnsemble, X: ArrayLike<number>, n: number, F: number): Float64Array;
export function packEnsemble(model: TrainedEnsemble, names: string[]): { features: string[]; classes: number; base: number[]; thresholds: number[][]; leafScale: number; trees: number; packed: string };
