import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Job, JobOutcome } from "@/server/jobs/job-messages";
import { scheduleDriftFold } from "@/server/jobs/drift-fold";
import { processState } from "@/server/process-state";

// The scheduler asks the process's job runner; a stand-in answers as a node whose fold another node holds.
const runner = processState("jobs", (): { runner?: { ask(job: Job): Promise<JobOutcome> } } => ({}));

describe("drift fold scheduling across nodes", () => {
  let asked: Job[];
  let answers: JobOutcome[];
  beforeEach(() => {
    vi.useFakeTimers();
    asked = [];
    answers = [];
    runner.runner = {
      ask: async (job) => {
        asked.push(job);
        return answers.shift() ?? { rows: 0 };
      },
    };
  });
  afterEach(() => {
    vi.useRealTimers();
    delete runner.runner;
  });

  it("asks again after a fold skipped because another node held it, until one runs", async () => {
    answers = [{ rows: 0, skipped: "another node is running this job" }, { rows: 0, skipped: "another node is running this job" }, { rows: 12 }];
    scheduleDriftFold("p1", 0);
    await vi.advanceTimersByTimeAsync(0);
    expect(asked).toEqual([{ job: "drift-fold", projectId: "p1" }]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(asked).toHaveLength(3);
    // Ran once: nothing more is asked.
    await vi.advanceTimersByTimeAsync(600_000);
    expect(asked).toHaveLength(3);
  });

  it("folds again at once when rows were ingested during a fold that ran", async () => {
    let finish!: (o: JobOutcome) => void;
    runner.runner = {
      ask: (job) => {
        asked.push(job);
        return asked.length === 1 ? new Promise((r) => (finish = r)) : Promise.resolve({ rows: 1 });
      },
    };
    scheduleDriftFold("p2", 0);
    await vi.advanceTimersByTimeAsync(0);
    scheduleDriftFold("p2");
    finish({ rows: 3 });
    await vi.advanceTimersByTimeAsync(0);
    expect(asked).toHaveLength(2);
  });
});
