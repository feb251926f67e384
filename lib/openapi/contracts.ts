// The list of feature contracts that make up /api/v1. Add a feature's contract here.
import "@/lib/users/contract";
import "@/lib/studies/contract";
import "@/lib/graders/contract";
import "@/lib/import/contract";
import "@/lib/grading/contract";
import "@/lib/escalation/contract";
import "@/lib/exports/contract";
import "@/lib/analytics/contract";
import "@/lib/rubrics/contract";
import "@/lib/harm/contract";
import "@/lib/judges/contract";
import "@/lib/judges/runner/contract";
import "@/lib/grade-import/contract";
import "@/lib/governance/contract";
import "@/lib/reference-metrics/contract";
import "@/lib/screening/contract";
import "@/lib/pairwise/contract";
