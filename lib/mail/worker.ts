import { logger } from "@/lib/log/logger";
import type { MailConfig } from "./config";
import { scheduleDueMail } from "./scheduler";
import { sendDueMail } from "./sender";

/**
 * The mail loop every instance runs (scripts/start.ts): it queues what the
 * day's deadlines and digests call for (./scheduler.ts, once a minute) and
 * sends what the outbox holds (./sender.ts). Both are safe with any number of
 * instances at once: queueing is deduplicated by key, sending leases rows.
 */
export interface MailWorker {
  stop(): Promise<void>;
}

export function startMailWorker(config: MailConfig, opts: { pollMs?: number; scheduleEveryMs?: number } = {}): MailWorker {
  const pollMs = opts.pollMs ?? 3000;
  const scheduleEveryMs = opts.scheduleEveryMs ?? 60_000;
  let lastScheduled = 0;
  let stopping = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;

  async function tick() {
    try {
      if (Date.now() - lastScheduled >= scheduleEveryMs) {
        lastScheduled = Date.now();
        await scheduleDueMail();
      }
      while (!stopping && (await sendDueMail(config)).length > 0);
    } catch (err) {
      logger.warn({ err: (err as Error).message }, "mail worker pass failed; it tries again");
    }
  }

  const loop = () => {
    if (stopping) return;
    running = tick().finally(() => {
      running = null;
      if (!stopping) timer = setTimeout(loop, pollMs);
    });
  };
  loop();
  return {
    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
