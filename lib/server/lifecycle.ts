/**
 * Whether this process is draining (SIGTERM received: scripts/start.ts stops
 * taking requests and finishes the ones in flight). Kept on globalThis because
 * the start script and every route bundle Next loads must see one flag.
 */
const state = globalThis as unknown as { clingradeDraining?: boolean };

export function isDraining(): boolean {
  return state.clingradeDraining === true;
}

export function startDraining(): void {
  state.clingradeDraining = true;
}
