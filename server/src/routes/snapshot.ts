// POST /v1/snapshot (spec 4.2): validate → reserve 1 credit → refine → commit → 2.8 response.
// A request that fails after the reservation is refunded, so only successes are charged.
import {
  ContractError,
  ERROR_NAMES,
  SNAPSHOT_CREDITS,
  validateSnapshotRequest,
  type SnapshotResponse,
} from "@sightline/shared/contract";
import type { AppDeps, AppRouter } from "../context.js";

export function registerSnapshot(router: AppRouter, deps: AppDeps): void {
  const { config, ledger, logger } = deps;
  router.post("/v1/snapshot", ...deps.api("snapshot"), async (ctx) => {
    const account = ctx.state.account!;
    const req = validateSnapshotRequest(ctx.request.body, { maxElements: config.maxRawElements });
    const reservation = await ledger.reserve(account.id, SNAPSHOT_CREDITS);
    let refined;
    try {
      refined = deps.refine(req, { cap: config.snapshotCap, reranker: deps.reranker });
    } catch (err) {
      await reservation.release();
      logger.error({ req_id: ctx.state.requestId, err }, "refinement failed");
      throw new ContractError("internal_error", ERROR_NAMES.internal, `${ERROR_NAMES.internal}: refinement failed; no credit was charged`);
    }
    reservation.commit();
    const body: SnapshotResponse = {
      status: "success",
      url: req.url,
      timestamp: new Date().toISOString(),
      viewport: refined.viewport,
      credits_used: SNAPSHOT_CREDITS,
      credits_remaining: reservation.remaining,
      elements: refined.elements,
      dominant_group_key: refined.dominant_group_key,
      ml_rerank: refined.ml_rerank,
      diagnostics: refined.diagnostics,
      modal_detected: refined.modal_detected,
      modal_grids: refined.modal_grids,
      error: null,
    };
    ctx.body = body;
  });
}
