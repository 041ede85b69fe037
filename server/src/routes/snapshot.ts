// POST /v1/snapshot (spec 4.2): body bytes → [worker: parse → validate → refine → render parts]
// → charge 1 credit → 2.8 response. The credit is taken as soon as the body has validated, so
// its ledger write overlaps the refinement; a request that then fails is refunded, so only
// successes are charged, and an invalid one never touches the ledger.
import { ContractError, ERROR_NAMES, SNAPSHOT_CREDITS } from "@sightline/shared/contract";
import type { AppDeps, AppRouter } from "../koa-types.js";
import type { Reservation } from "../ledger/index.js";
import { fromErrorData, renderServerTiming, renderSnapshotBody } from "../snapshot/index.js";

export function registerSnapshot(router: AppRouter, deps: AppDeps): void {
  const { config, ledger, logger } = deps;
  router.post("/v1/snapshot", ...deps.api("snapshot", "raw"), async (ctx) => {
    const account = ctx.state.account!;
    const charge: { pending?: Promise<Reservation> } = {};
    const started = performance.now();
    const outcome = await deps.snapshots.run(
      { body: ctx.state.bodyBytes ?? "", maxElements: config.maxRawElements, cap: config.snapshotCap },
      () => {
        charge.pending = ledger.reserve(account.id, SNAPSHOT_CREDITS);
        charge.pending.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
      },
    );
    const ran = performance.now();
    if (!outcome.ok && outcome.stage === "invalid") throw fromErrorData(outcome.error);
    // 402/403 surface here. A job that failed before validating charged nothing.
    const reservation = charge.pending ? await charge.pending : null;
    if (!outcome.ok || reservation === null) {
      await reservation?.release();
      logger.error({ req_id: ctx.state.requestId, err: outcome.ok ? "no reservation" : outcome.message }, "refinement failed");
      throw new ContractError("internal_error", ERROR_NAMES.internal, `${ERROR_NAMES.internal}: refinement failed; no credit was charged`);
    }
    reservation.commit();
    const t = outcome.timing;
    const work = t.parse + t.validate + t.refine + t.render;
    ctx.set(
      "Server-Timing",
      renderServerTiming(t, { read: ctx.state.bodyReadMs ?? 0, handoff: ran - started - work - t.onValid, charge: t.onValid + performance.now() - ran }),
    );
    ctx.type = "application/json";
    ctx.body = renderSnapshotBody(outcome, { timestamp: new Date().toISOString(), credits_remaining: reservation.remaining });
  });
}
