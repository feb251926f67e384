"""GPT-4o's own scores of the 150 human-rated chattogovar answers as a judge-scores CSV
(item_id, model, repetition, dimension, score), the layout POST .../judges/{judgeId}/scores reads.
No probabilities: the published judge gave one score per criterion.

    python3 scripts/realdata/chattogovar-judge.py ../shared/realdata/chattogovar > tests/fixtures/realdata/chattogovar/gpt-4o-judge.csv
"""
import csv, json, sys

root = sys.argv[1]
items = [json.loads(l) for l in open(f"{root}/items_with_answers.jsonl")]
judge = {(r["QuestionNumber"], r["Filename_Text"][:-3]): r for r in json.load(open(f"{root}/gpt-4o__aggregate_llm.json"))}
CRITERIA = [("accuracy", "Accuracy"), ("completeness", "Completeness"), ("logical_consistency", "Logical Consistency"),
            ("clarity_conciseness", "Clarity and Conciseness"), ("evidence_support", "Evidence Support")]
out = csv.writer(sys.stdout, lineterminator="\n")
out.writerow(["item_id", "model", "repetition", "dimension", "score"])
for it in items:
    r = judge[(it["question_number"], it["rsid"])]
    for system in ["ChatTogoVar", "GPT-4o", "VarChat"]:
        for key, name in CRITERIA:
            out.writerow([it["item_id"], system, 1, key, r[f"{system}_{name}"]])
