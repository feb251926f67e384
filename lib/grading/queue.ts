import { getDb } from "@/lib/db/client";

/**
 * A grader's own work, in their own random order. Only opaque ids and the
 * grader's own progress: nothing about the model, nothing about other graders.
 */
export interface QueueEntry {
  id: string;
  position: number;
  kind: "PRIMARY" | "ADJUDICATOR";
  status: "PENDING" | "IN_PROGRESS" | "SUBMITTED";
  specialty: string;
  question: string;
}

export async function graderQueue(graderId: string): Promise<QueueEntry[]> {
  const rows = await getDb().assignment.findMany({
    where: { graderId, status: { not: "CANCELLED" }, responseSet: { study: { status: "OPEN" } } },
    orderBy: { position: "asc" },
    select: {
      id: true,
      position: true,
      kind: true,
      status: true,
      responseSet: { select: { item: { select: { question: true, specialty: { select: { name: true } } } } } },
    },
  });
  return rows.map((r) => ({
    id: r.id,
    position: r.position,
    kind: r.kind,
    status: r.status as QueueEntry["status"],
    specialty: r.responseSet.item.specialty.name,
    question: r.responseSet.item.question,
  }));
}
